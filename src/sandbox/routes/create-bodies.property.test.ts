import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessSandbox } from '../../../test/support/in-process.js';
import { detectBrand, luhnValid } from '../../domain/cards.js';

// Acceptance 2: random invalid bodies to each create endpoint all get 400 naming the
// right param, and the database is unchanged. Each body is a valid one with exactly one
// thing wrong: an unknown field, a required field dropped, or one field made invalid.

let s: Awaited<ReturnType<typeof inProcessSandbox>>;
const valid: Record<string, Record<string, unknown>> = {};

beforeAll(async () => {
  s = await inProcessSandbox();
  const customer = (await s.call('POST', '/v1/customers', {})).body;
  const pm = (await s.call('POST', '/v1/payment-methods', { type: 'card', card: { number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123' } })).body;
  const paid = (await s.call('POST', '/v1/payment-intents', { amount: 1000, currency: 'usd', payment_method_types: ['card'], confirm: true, payment_method_id: pm.id })).body;
  const code = (await s.call('POST', '/v1/terminal-readers/activation-codes')).body.code;
  valid['/v1/payment-methods'] = { type: 'card', card: { number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123' }, billing_details: { address: { zip: '94110' } }, metadata: { a: 'b' } };
  valid['/v1/payment-intents'] = { amount: 1000, currency: 'usd', payment_method_types: ['card'], confirm: true, capture_method: 'automatic', payment_method_id: pm.id, customer_id: customer.id, metadata: { a: 'b' } };
  valid['/v1/refunds'] = { payment_intent_id: paid.id, amount: 100, reason: 'duplicate', metadata: { a: 'b' } };
  valid['/v1/checkout-sessions'] = { amount: 1000, currency: 'usd', success_url: 'https://a.example/ok', cancel_url: 'https://a.example/no', customer_id: customer.id, metadata: { a: 'b' }, description: 'Espresso beans', merchant_name: 'Corner Roasters' };
  valid['/v1/payment-links'] = { amount: 1000, currency: 'usd', success_url: 'https://a.example/ok', cancel_url: 'https://a.example/no', metadata: { a: 'b' }, description: 'Espresso beans', merchant_name: 'Corner Roasters' };
  valid['/v1/terminal-readers/activate'] = { activation_code: code, serial_number: 'SN-PROP-1', processor: 'A', model: 'a-countertop', label: 'Front desk' };
  valid['/v1/customers'] = { email: 'a@example.com', first_name: 'A', last_name: 'B', phone: '5551234', metadata: { a: 'b' } };
});
afterAll(async () => s.close());

const notString = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 2 }));
const badAmount = fc.oneof(
  fc.integer({ max: 0 }),
  fc.integer({ min: 100_000_000 }),
  fc.double({ noInteger: true, noNaN: true, noDefaultInfinity: true }),
  fc.string(),
  fc.boolean(),
  fc.constant(null),
);
const badCurrency = fc.oneof(fc.string().filter((v) => !/^[a-z]{3}$/.test(v)), notString);
const badId = (prefix: string) => fc.oneof(fc.string().filter((v) => !new RegExp(`^${prefix}_[A-Za-z0-9]+$`).test(v)), notString);
const badEnum = (values: string[]) => fc.oneof(fc.string().filter((v) => !values.includes(v)), notString);
const badMetadata = fc.oneof(fc.string(), fc.integer(), fc.array(fc.string(), { minLength: 1, maxLength: 2 }), fc.constant(null));
const badUrl = fc.oneof(fc.constantFrom('ftp://a.example/x', 'not a url', '', '/relative', 'javascript:alert(1)'), notString);
/** Text for the hosted page: blank, too long, more than one line, or not a string. */
const badPageText = (max: number) =>
  fc.oneof(fc.stringMatching(/^\s*$/), fc.string({ minLength: max + 1, maxLength: max + 20 }).filter((v) => v.trim().length > max), fc.constantFrom('a\nb', 'tab\there'), notString);
const badCardNumber = fc.oneof(
  fc.stringMatching(/^\d{12,19}$/).filter((n) => !luhnValid(n) || detectBrand(n) === undefined),
  fc.string().filter((v) => !luhnValid(v.replace(/[\s-]/g, ''))),
  notString,
);

/** Per endpoint: the fields a body must have, and for each field (dotted path) values it must refuse. */
const RULES: Record<string, { required: string[]; invalid: Record<string, fc.Arbitrary<unknown>> }> = {
  '/v1/payment-methods': {
    required: ['card', 'card.number', 'card.exp_month', 'card.exp_year', 'card.cvc'],
    invalid: {
      type: badEnum(['card', 'card_present']),
      'card.number': badCardNumber,
      'card.exp_month': fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 13 }), fc.double({ noInteger: true, noNaN: true, noDefaultInfinity: true }), fc.string()),
      'card.exp_year': fc.oneof(fc.integer({ max: 1999 }), fc.integer({ min: 2100 }), fc.string(), fc.constant(null)),
      'card.cvc': fc.oneof(fc.string().filter((v) => !/^\d{3}$/.test(v)), notString),
      'billing_details.address.zip': fc.oneof(fc.string().filter((v) => !/^[A-Za-z0-9 -]{3,10}$/.test(v)), notString),
      metadata: badMetadata,
    },
  },
  '/v1/payment-intents': {
    required: ['amount', 'currency', 'payment_method_types', 'payment_method_id'],
    invalid: {
      amount: badAmount,
      currency: badCurrency,
      payment_method_types: fc.oneof(fc.constant([]), fc.constant(['card', 'card']), fc.string(), fc.integer(), fc.constant(null)),
      'payment_method_types.0': badEnum(['card', 'card_present']),
      confirm: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
      capture_method: badEnum(['automatic', 'manual']),
      payment_method_id: badId('pm'),
      customer_id: badId('cus'),
      metadata: badMetadata,
    },
  },
  '/v1/refunds': {
    required: ['payment_intent_id'],
    invalid: {
      payment_intent_id: badId('pi'),
      // Beyond what was captured (1000, of which nothing is refunded) is refused too.
      amount: fc.oneof(badAmount, fc.integer({ min: 1001, max: 99_999_999 })),
      reason: badEnum(['duplicate', 'fraudulent', 'requested_by_customer']),
      metadata: badMetadata,
    },
  },
  '/v1/checkout-sessions': {
    required: ['amount', 'currency', 'success_url', 'cancel_url'],
    invalid: { amount: badAmount, currency: badCurrency, success_url: badUrl, cancel_url: badUrl, customer_id: badId('cus'), metadata: badMetadata, description: badPageText(500), merchant_name: badPageText(100) },
  },
  '/v1/payment-links': {
    required: ['amount', 'currency'],
    invalid: { amount: badAmount, currency: badCurrency, success_url: badUrl, cancel_url: badUrl, metadata: badMetadata, description: badPageText(500), merchant_name: badPageText(100) },
  },
  '/v1/terminal-readers/activate': {
    required: ['activation_code', 'serial_number', 'processor', 'model'],
    invalid: {
      activation_code: fc.oneof(fc.constant(''), notString, fc.stringMatching(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/)),
      serial_number: fc.oneof(fc.string().filter((v) => !/^[A-Za-z0-9-]{4,40}$/.test(v)), notString),
      processor: badEnum(['A']),
      model: badEnum(['a-countertop', 'a-handheld']),
      label: fc.oneof(fc.constant(''), notString),
    },
  },
  '/v1/customers': {
    required: [],
    invalid: {
      email: fc.oneof(fc.string().filter((v) => !v.includes('@')), notString),
      phone: fc.oneof(fc.string().filter((v) => !/^\d{4,20}$/.test(v)), notString),
      first_name: fc.oneof(fc.constant(''), notString),
      metadata: badMetadata,
    },
  },
};

function withPath(body: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(body);
  const keys = path.split('.');
  let target = copy;
  for (const key of keys.slice(0, -1)) target = target[key] as Record<string, unknown>;
  if (value === undefined) delete target[keys.at(-1)!];
  else target[keys.at(-1)!] = value;
  return copy;
}

const KEY = /^[a-z][a-z_]{0,15}$/;

function invalidBody(path: string): fc.Arbitrary<{ body: Record<string, unknown>; param: string }> {
  const rules = RULES[path]!;
  const base = valid[path]!;
  const unknownField = fc
    .stringMatching(KEY)
    .filter((k) => !(k in base) && !Object.keys(rules.invalid).some((f) => f.split('.')[0] === k))
    .map((key) => ({ body: { ...base, [key]: 'x' }, param: key }));
  const dropped = rules.required.length === 0 ? [] : [fc.constantFrom(...rules.required).map((field) => ({ body: withPath(base, field, undefined), param: field }))];
  const broken = Object.entries(rules.invalid).map(([field, values]) => values.map((value) => ({ body: withPath(base, field, value), param: field })));
  return fc.oneof(unknownField, ...dropped, ...broken);
}

describe('create endpoints refuse invalid bodies, naming the field, changing nothing', () => {
  for (const path of Object.keys(RULES)) {
    it(`POST ${path}`, async () => {
      const ok = await s.call('POST', path, valid[path]);
      // The base body is accepted, so each refusal below comes from its one change.
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      await fc.assert(
        fc.asyncProperty(invalidBody(path), async ({ body, param }) => {
          const before = s.counts();
          const res = await s.call('POST', path, body);
          expect(res.status, JSON.stringify({ body, res: res.body })).toBe(400);
          expect(res.body.error.param, JSON.stringify({ body, res: res.body })).toBe(param);
          expect(s.counts()).toEqual(before);
        }),
        { numRuns: 150 },
      );
    });
  }
});
