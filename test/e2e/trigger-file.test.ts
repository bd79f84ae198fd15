import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cuttingProxy } from '../support/cutting-proxy.js';
import { type SandboxHandle, startSandbox } from './harness.js';

let sb: SandboxHandle;
const dir = mkdtempSync(join(tmpdir(), 'pay-flows-'));
beforeAll(async () => {
  sb = await startSandbox({ clock: '2030-01-15' });
});
afterAll(async () => {
  await sb?.stop();
  rmSync(dir, { recursive: true, force: true });
});

let files = 0;
function flowFile(flow: unknown): string {
  const file = join(dir, `flow${++files}.json`);
  writeFileSync(file, typeof flow === 'string' ? flow : JSON.stringify(flow, null, 2));
  return file;
}

const CARD = { number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123' };
const customerStep = { name: 'customer', request: { method: 'POST', path: '/v1/customers', body: { email: 'flow@example.com' } } };
const cardStep = { name: 'card', request: { method: 'POST', path: '/v1/payment-methods', body: { type: 'card', card: CARD } } };

/** Every step kind: requests with references (in bodies and paths), a reader present, a checkout payment, a clock advance. */
const EVERYTHING = {
  name: 'everything',
  events: ['customer.created'],
  primary: 'intent',
  steps: [
    customerStep,
    cardStep,
    { name: 'attach', request: { method: 'PUT', path: '/v1/payment-methods/${card.id}/attach', body: { customer_id: '${customer.id}' } } },
    { name: 'intent', request: { method: 'POST', path: '/v1/payment-intents', body: { amount: 1000, currency: 'usd', payment_method_types: ['card'], payment_method_id: '${card.id}', customer_id: '${customer.id}', confirm: true, metadata: { note: 'for ${customer.email}' } } } },
    { name: 'code', request: { method: 'POST', path: '/v1/terminal-readers/activation-codes' } },
    { name: 'reader', request: { method: 'POST', path: '/v1/terminal-readers/activate', body: { activation_code: '${code.code}', serial_number: 'SN-FLOW-1', processor: 'A', model: 'a-countertop' } } },
    { name: 'in_person_card', request: { method: 'POST', path: '/v1/payment-methods', body: { type: 'card_present', terminal_reader_id: '${reader.id}' } } },
    { name: 'in_person', request: { method: 'POST', path: '/v1/payment-intents', body: { amount: 1000, currency: 'usd', payment_method_types: ['card_present'], payment_method_id: '${in_person_card.id}', confirm: true } } },
    { name: 'tapped', present: { reader: '${reader.id}', outcome: 'approved', tip_amount: 200 } },
    { name: 'session', request: { method: 'POST', path: '/v1/checkout-sessions', body: { amount: 2500, currency: 'usd', success_url: 'https://example.com/ok', cancel_url: 'https://example.com/cancel' } } },
    { name: 'paid', pay_checkout: { session: '${session.id}' } },
    { name: 'next_day', advance_clock: { days: 1 } },
    { name: 'intents', request: { method: 'GET', path: '/v1/payment-intents', query: { customer_id: '${customer.id}' } } },
  ],
};

describe('pay trigger --file', () => {
  it('runs every kind of step, each referring to earlier results, and --json prints every result', async () => {
    const out = await sb.json(['trigger', '--file', flowFile(EVERYTHING), '--override', 'amount=1234']);
    expect(out.flow).toBe('everything');
    expect(Object.keys(out.steps)).toEqual(EVERYTHING.steps.map((s) => s.name));
    const { steps } = out;
    expect(steps.attach).toMatchObject({ id: steps.card.id, customer_id: steps.customer.id });
    // The bare override set the primary step's amount; a reference inside a string is interpolated.
    expect(steps.intent).toMatchObject({ status: 'succeeded', amount: 1234, payment_method_id: steps.card.id, metadata: { note: 'for flow@example.com' } });
    expect(steps.tapped).toMatchObject({ id: steps.in_person.id, status: 'succeeded', amount_received: 1200 });
    expect(steps.paid).toMatchObject({ id: steps.session.payment_intent_id, status: 'succeeded', amount: 2500 });
    expect(steps.next_day).toEqual({ object: 'test_clock', now: '2030-01-16T00:00:00Z' });
    expect(steps.intents.data.map((i: { id: string }) => i.id)).toEqual([steps.intent.id]);
    // `created` names each object once, by the step that made it.
    expect(out.created).toMatchObject({ customer: steps.customer.id, card: steps.card.id, intent: steps.intent.id, reader: steps.reader.id, paid: steps.paid.id });
    expect(out.created.attach).toBeUndefined();
    expect(out.created.next_day).toBeUndefined();
  });

  it('--override step.field sets a named step, and a value replacing a string stays a string', async () => {
    const flow = { steps: [customerStep, { name: 'again', request: { method: 'POST', path: '/v1/customers', body: { email: 'x@example.com', phone: '5550100' } } }] };
    const out = await sb.json(['trigger', '--file', flowFile(flow), '--override', 'customer.email=jenny@example.com', '--override', 'phone=5550199']);
    expect(out.steps.customer.email).toBe('jenny@example.com');
    expect(out.steps.again).toMatchObject({ email: 'x@example.com', phone: '5550199' });
    expect(out.flow).toMatch(/^flow\d+\.json$/);
  });

  it('refuses a file that is not a flow before any request (exit 2), naming the step and the field', async () => {
    const before = (await sb.http('GET', '/v1/customers?limit=100')).body.data.length;
    const cases: Array<[unknown, RegExp]> = [
      [{ steps: [customerStep, { name: 'intent', request: { method: 'POST', path: '/v1/payment-intents', body: { payment_method_id: '${pm.id}' } } }] }, /step 'intent' \(steps\[1\]\) request\.body\.payment_method_id: \$\{pm\.id\} refers to no earlier step 'pm' \(earlier steps: customer\)/],
      [{ steps: [{ name: 'later', request: { method: 'PUT', path: '/v1/payment-methods/${card.id}/attach' } }, cardStep] }, /step 'later' \(steps\[0\]\) request\.path: \$\{card\.id\} refers to no earlier step 'card'/],
      [{ steps: [{ name: 'customer', request: { method: 'PATCH', path: '/v1/customers' } }] }, /step 'customer' \(steps\[0\]\) request\.method: must be GET, POST, PUT or DELETE/],
      [{ steps: [{ name: 'both', request: { method: 'GET', path: '/v1/customers' }, advance_clock: { days: 1 } }] }, /step 'both' \(steps\[0\]\): must have exactly one of request, advance_clock, present, pay_checkout \(has request and advance_clock\)/],
      [{ steps: [customerStep, customerStep] }, /step 'customer' \(steps\[1\]\) name: 'customer' is the name of an earlier step/],
      [{ steps: [{ name: 'x', advance_clock: { to: '${clock.yesterday}' } }] }, /step 'x' \(steps\[0\]\) advance_clock\.to: \$\{clock\.yesterday\} is not a field of the clock/],
      [{ steps: [customerStep], colour: 'blue' }, /colour: is not a field of the flow format/],
      // A step's own body, against what its endpoint takes, before the steps before it run.
      [{ steps: [customerStep, { ...cardStep, request: { ...cardStep.request, body: { ...cardStep.request.body, bogus_field: 1 } } }] }, /Invalid step 'card': bogus_field: step 'card' \(POST \/v1\/payment-methods\) takes no field 'bogus_field'; its fields: /],
      [{ steps: [customerStep, { name: 'pay', request: { method: 'POST', path: '/v1/payment-intents', body: { amount: 'ten', currency: 'usd', payment_method_types: ['card'] } } }] }, /Invalid step 'pay': amount: must be/],
      [{ steps: [] }, /steps: must have at least one step/],
      ['{"steps": [', /not JSON/],
    ];
    for (const [flow, message] of cases) {
      const result = await sb.pay(['trigger', '--file', flowFile(flow)]);
      expect(result.exitCode, result.stderr).toBe(2);
      expect(result.stderr).toMatch(message);
    }
    const missing = await sb.pay(['trigger', '--file', join(dir, 'nope.json')]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('Cannot read --file');
    expect((await sb.http('GET', '/v1/customers?limit=100')).body.data.length).toBe(before);
  });

  it('a failing step names the step and exits with its code; a reference to a field its step did not answer exits 2', async () => {
    const declined = await sb.pay(['trigger', '--file', flowFile({ steps: [cardStep, { name: 'charge', request: { method: 'POST', path: '/v1/payment-intents', body: { amount: 500, currency: 'usd', payment_method_types: ['card'], payment_method_id: '${card.id}', confirm: true } } }] }), '--override', 'card.card.number=4000000000000002']);
    expect(declined.exitCode).toBe(6);
    expect(declined.stderr).toMatch(/Step 'charge': .*card_declined/);
    const missing = await sb.pay(['trigger', '--file', flowFile({ steps: [{ name: 'lookup', request: { method: 'GET', path: '/v1/customers/cus_nothere' } }] })]);
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).toMatch(/Step 'lookup': No such customer/);
    const invalid = await sb.pay(['trigger', '--file', flowFile({ steps: [customerStep] }), '--override', 'email=not-an-email']);
    expect(invalid.exitCode).toBe(2);
    expect(invalid.stderr).toMatch(/Invalid --override customer\.email: must be/);
    const wrongField = await sb.pay(['trigger', '--file', flowFile({ steps: [customerStep, { name: 'card', request: { method: 'PUT', path: '/v1/payment-methods/pm_x/attach', body: { customer_id: '${customer.idd}' } } }] })]);
    expect(wrongField.exitCode).toBe(2);
    expect(wrongField.stderr).toContain("Step 'card': ${customer.idd} refers to nothing: the result of 'customer' has no idd.");
  });

  it('a card the reader declines fails its present step (exit 6) as a declined request does, unless the step expects it', async () => {
    const tappedDeclined = (expect: Record<string, string>) => ({
      steps: [
        ...EVERYTHING.steps.filter((step) => ['code', 'reader', 'in_person_card', 'in_person'].includes(step.name)),
        { name: 'tapped', present: { reader: '${reader.id}', outcome: 'declined' }, ...expect },
      ],
    });
    const failed = await sb.pay(['trigger', '--file', flowFile(tappedDeclined({})), '--override', 'reader.serial_number=SN-FLOW-DECLINE-1']);
    expect(failed.exitCode, failed.stderr).toBe(6);
    expect(failed.stderr).toMatch(/Step 'tapped': Card declined on tmr_\w+: .*card_declined/);
    const expected = await sb.json(['trigger', '--file', flowFile(tappedDeclined({ expect: 'declined' })), '--override', 'reader.serial_number=SN-FLOW-DECLINE-2']);
    expect(expected.steps.tapped).toMatchObject({ object: 'payment_intent', status: 'requires_payment_method', last_payment_error: { code: 'card_declined' } });
  });

  it('an override its step does not take, or a value its rule refuses, exits 2 before any step runs', async () => {
    const count = async () => (await sb.http('GET', '/v1/payment-methods?limit=100')).body.data.length;
    const before = await count();
    // A step's name mistyped lands on the main step, which takes no such field.
    const typo = await sb.pay(['trigger', 'charge.refunded', '--override', 'paymentintent.amount=5000']);
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toContain("Invalid --override refund.paymentintent: step 'refund' (POST /v1/refunds) takes no field 'paymentintent'");
    expect(typo.stderr).toContain('steps: payment_method, payment_intent, refund');
    const value = await sb.pay(['trigger', 'charge.refunded', '--override', 'payment_intent.amount=abc']);
    expect(value.exitCode).toBe(2);
    expect(value.stderr).toMatch(/Invalid --override payment_intent\.amount: must be an integer/);
    expect(await count()).toBe(before);
  });

  it('the checkout page\'s card: a bad one exits 2 before any step runs; one the page refuses exits with the card\'s own code', async () => {
    const sessions = async () => (await sb.http('GET', '/v1/checkout-sessions?limit=100')).body.data.length;
    const before = await sessions();
    const bad = await sb.pay(['trigger', 'checkout.completed', '--override', 'payment_intent.card.exp=13/99']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain("Invalid card of step 'payment_intent': the checkout page refuses card.exp_month");
    expect((await sb.pay(['trigger', 'checkout.completed', '--override', 'payment_intent.card.bogus=1'])).exitCode).toBe(2);
    expect(await sessions()).toBe(before);
    const hsa = await sb.pay(['trigger', 'checkout.completed', '--override', 'payment_intent.card.number=4000000000001117', '--json']);
    expect(hsa.exitCode).toBe(6);
    expect(JSON.parse(hsa.stderr).error).toMatchObject({ code: 'card_not_supported', param: 'card.number' });
  });

  it('the checkout page paid but its answer lost on the way: the flow reads the intent and goes on, without paying again', async () => {
    // The page takes no Idempotency-Key, so its POST is never sent again; the network fails after the page charged the card.
    const proxy = await cuttingProxy(sb.baseUrl, (chunk) => chunk.toString('latin1').startsWith('HTTP/1.1 303'));
    try {
      const run = await sb.pay(['trigger', 'checkout.completed', '--json'], { env: { PAY_BASE_URL: proxy.baseUrl, PAY_ACCOUNT: sb.account, PAY_API_KEY: sb.apiKey } });
      expect(proxy.cuts()).toBe(1);
      expect(run.exitCode, run.stderr).toBe(0);
      const intentId = JSON.parse(run.stdout).created.payment_intent;
      expect((await sb.http('GET', `/v1/payment-intents/${intentId}`)).body.status).toBe('succeeded');
      expect((await sb.http('GET', `/v1/charges?payment_intent_id=${intentId}`)).body.data).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });

  it('--show prints a built-in flow as a file that --file runs as the built-in does', async () => {
    const shown = await sb.pay(['trigger', '--show', 'payment_intent.succeeded']);
    expect(shown.exitCode).toBe(0);
    const flow = JSON.parse(shown.stdout);
    expect(flow).toMatchObject({ name: 'payment_intent.succeeded', steps: [{ name: 'payment_method' }, { name: 'payment_intent' }] });
    const copy = await sb.json(['trigger', '--file', flowFile(shown.stdout), '--override', 'amount=777']);
    expect(copy.flow).toBe('payment_intent.succeeded');
    expect(copy.steps.payment_intent).toMatchObject({ amount: 777, status: 'succeeded' });
    const both = await sb.pay(['trigger', 'payment_intent.succeeded', '--file', flowFile(shown.stdout)]);
    expect(both.exitCode).toBe(2);
  });

  it("runs the README's example flow", async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const example = /### Flows[\s\S]*?```json\n([\s\S]*?)```/.exec(readme)![1]!;
    const out = await sb.json(['trigger', '--file', flowFile(example), '--override', 'payment.amount=5000']);
    expect(out.steps.tap).toMatchObject({ id: out.steps.payment.id, status: 'succeeded', amount: 5000, amount_received: 5200, customer_id: out.steps.customer.id });
    expect(out.steps.next_week.now).toBe('2030-01-23T00:00:00Z');
  });
});
