import { DatabaseSync } from 'node:sqlite';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { endpoints, fillPath, isWrite } from '../../src/domain/endpoints.js';
import { Api, collectionOf, runSeed, SandboxProcess } from './support.js';

// Hostile input on every endpoint of the route table (src/domain/endpoints.ts), so a new
// route is covered without editing this test: bodies and query strings with wrong types,
// unknown and missing fields, huge and deeply nested values, bad amounts, currencies and
// dates, path traversal, quotes and control characters in ids, keys and metadata. Each
// request carries at least one value no field of the API accepts (a negative fraction, a
// nested object, a limit out of range, a body that is no JSON object), so every answer
// must be a 4xx error body, naming the field where one is at fault; the database's rows
// are the same after; the server still answers.

const SEED = runSeed();
const RUNS_PER_ENDPOINT = 40;
const sandbox = new SandboxProcess({ clock: '2030-01-15' });
const api = new Api(() => sandbox.baseUrl, { timeoutMs: 30_000, retryServerErrors: false });
/** A real object per collection, so hostile bodies also reach the rules of existing objects. */
const fixtures = new Map<string, string>();

beforeAll(async () => {
  await sandbox.start();
  const auth = sandbox.auth;
  const ok = async (name: keyof typeof endpoints, body?: unknown, id?: string) => {
    const { method, path } = endpoints[name];
    const res = await api.call(auth, method, fillPath(path, id === undefined ? {} : { id }), body);
    if (res.status !== 200) throw new Error(`${name}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const customer = await ok('customers.create', { email: 'fixture@example.com' });
  const pm = await ok('payment_methods.create', { type: 'card', card: { number: '4242424242424242', exp_month: 12, exp_year: 2040, cvc: '123' } });
  await ok('payment_methods.attach', { customer_id: customer.id }, pm.id);
  const paid = await ok('payment_intents.create', { amount: 2000, currency: 'usd', payment_method_types: ['card'], confirm: true, payment_method_id: pm.id });
  const open = await ok('payment_intents.create', { amount: 2000, currency: 'usd', payment_method_types: ['card'] });
  const refund = await ok('refunds.create', { payment_intent_id: paid.id, amount: 100 });
  const sub = await ok('subscriptions.create', { customer_id: customer.id, payment_method_id: pm.id, price: 1000, billing_cycle_anchor: '2030-01-20', interval_unit: 'month', interval_count: 1 });
  const session = await ok('checkout_sessions.create', { amount: 1000, currency: 'usd', success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/no' });
  const link = await ok('payment_links.create', { amount: 1000, currency: 'usd' });
  const hook = await ok('webhook_endpoints.create', { url: 'http://127.0.0.1:9/hook', enabled_events: ['customer.created'] });
  const code = await ok('terminal_readers.activation_code', {});
  const reader = await ok('terminal_readers.activate', { activation_code: code.code, serial_number: 'SN-HOSTILE-1', processor: 'A', model: 'a-countertop' });
  const event = (await ok('events.list')).data[0];
  for (const [collection, id] of Object.entries({
    customers: customer.id, 'payment-methods': pm.id, 'payment-intents': open.id, charges: paid.latest_charge_id, refunds: refund.id,
    subscriptions: sub.id, 'checkout-sessions': session.id, 'payment-links': link.id, 'webhook-endpoints': hook.id,
    'terminal-readers': reader.id, events: event.id,
  })) fixtures.set(collection, id as string);
}, 60_000);
afterAll(() => sandbox.stop());

/** Every table's row count, read from the database file beside the running sandbox (WAL lets a reader in). */
function rowCounts(): Record<string, number> {
  const db = new DatabaseSync(sandbox.db, { readOnly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as Array<{ name: string }>;
    return Object.fromEntries(tables.map(({ name }) => [name, (db.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n]));
  } finally {
    db.close();
  }
}

const FIELDS = [
  'amount', 'currency', 'payment_method_types', 'confirm', 'capture_method', 'payment_method_id', 'customer_id', 'metadata', 'description',
  'email', 'first_name', 'middle_name', 'last_name', 'phone', 'type', 'card', 'billing_details', 'terminal_reader_id', 'price',
  'billing_cycle_anchor', 'interval_unit', 'interval_count', 'platform_fee_amount', 'cancel_at', 'amount_to_capture', 'cancellation_reason',
  'success_url', 'cancel_url', 'merchant_name', 'url', 'subscription_group', 'enabled_events', 'to', 'days', 'account', 'api_key',
  'outcome', 'tip_amount', 'available_amount', 'activation_code', 'serial_number', 'processor', 'model', 'label', 'reason', 'payment_intent_id',
];
const QUERY = ['limit', 'starting_after', 'type', 'status', 'customer_id', 'subscription_id', 'payment_intent_id', 'created[gte]', 'created[lt]'];

const nasty = fc.constantFrom(
  '../../etc/passwd', '..', '.', '..%2f..%2f', "'; DROP TABLE objects; --", '"quoted"', "it's", 'a\u0000b', '\r\nx-injected: 1', '\t',
  '%00', '\u202eevil', '<script>alert(1)</script>', '𝓤𝓷𝓲𝓬𝓸𝓭𝓮', ' ', '', 'cus_', 'evt_x', `cus_${'x'.repeat(150)}`, '${7*7}', '__proto__', 'constructor',
);
const text = fc.oneof(nasty, fc.string({ unit: 'grapheme', maxLength: 30 }), fc.constantFrom(10_000, 300_000, 1_200_000).map((n) => 'x'.repeat(n)));
const amount = fc.oneof(fc.constantFrom(0, -1, 0.5, 1e21, 2 ** 53 + 2, -(2 ** 31)), fc.integer({ min: -1e12, max: 1e12 }), fc.double({ noNaN: true, noDefaultInfinity: true }));
const currency = fc.constantFrom('US', 'usdd', 'XXX', 'USD', 'u$d', '', '🙂🙂🙂', 'usd\u0000');
const date = fc.constantFrom('2030-02-30', '2030-13-01', '0000-00-00', 'yesterday', '2030-01-01T25:00:00Z', '1969-12-31', '99999-01-01', '2030/01/20');
/** A nested object `depth` deep under hostile keys: no field takes it. */
const deep = fc.tuple(fc.integer({ min: 2, max: 400 }), nasty).map(([depth, key]) => {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = { [key || 'k']: value };
  return value as Record<string, unknown>;
});
/** A value no field of the API accepts, whatever its type: a negative fraction, or an object nested under unknown keys. */
const poison = fc.oneof(fc.constantFrom(-0.5, -1e-7, -123.25, -9007199254740.5), deep, fc.array(deep, { minLength: 1, maxLength: 2 }));
const value: fc.Arbitrary<unknown> = fc.oneof(
  text, amount, currency, date, fc.boolean(), fc.constant(null), poison,
  fc.array(text, { maxLength: 3 }),
  fc.array(fc.tuple(text, fc.oneof(text, amount)), { maxLength: 3 }).map((entries) => ({ metadata_like: Object.fromEntries(entries) })),
);
const name = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...FIELDS) }, { weight: 1, arbitrary: nasty });
/** JSON text of an object with one poisoned field among hostile ones (built from entries, so `__proto__` stays a key), or of no object at all. */
const body = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.array(fc.tuple(name, value), { maxLength: 4 }), name, poison).map(([rest, key, bad]) => JSON.stringify(Object.fromEntries([...rest.filter(([k]) => k !== key), [key, bad]]))) },
  { weight: 1, arbitrary: fc.constantFrom('{', '{"amount": ', 'null', '[]', '[{"amount": 100}]', '42', '"text"', 'true', '{"__proto__": {"admin": true}}', 'nul\u0000l', '{"a":1}{"b":2}') },
);
/** A query with hostile filters and one limit no list takes. */
const query = fc
  .tuple(fc.array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY), nasty), fc.oneof(text.filter((t) => t.length < 2000), date, currency)), { maxLength: 3 }), fc.constantFrom('-1', '0', '0.5', '101', '1e3', 'abc', '9'.repeat(30), '%00', '1;2'))
  .map(([entries, limit]) => {
    const params = new URLSearchParams();
    for (const [k, v] of entries) if (k !== 'limit') params.append(k, v);
    params.append('limit', limit);
    return params.toString();
  });
const id = fc.oneof(nasty, fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }));
const key = fc.option(fc.constantFrom('k', 'x'.repeat(300), 'quote"key', "it's", '../../key', '🙂'.repeat(3)), { nil: undefined });

it('answers hostile input on every endpoint with a 4xx error naming the field, never a 500, changing nothing', async () => {
  const started = Date.now();
  const before = rowCounts();
  let tried = 0;
  const statuses = new Map<number, number>();
  for (const [routeName, { method, path }] of Object.entries(endpoints)) {
    const collection = collectionOf(path);
    const fixture = fixtures.get(collection);
    const ids = path.includes('{id}') && fixture !== undefined ? fc.oneof(id, fc.constant(fixture)) : id;
    await fc.assert(
      fc.asyncProperty(ids, body, query, key, async (pathId, json, search, idempotencyKey) => {
        tried++;
        // Each id is one encoded path segment (`.` and `..` are resolved by the URL, as by any client: poisoned, the request fails wherever it lands).
        const url = `${path.replace('{id}', encodeURIComponent(pathId))}${method === 'GET' ? `?${search}` : ''}`;
        const headers: Record<string, string> = idempotencyKey && isWrite(method) ? { 'idempotency-key': encodeURIComponent(idempotencyKey) } : {};
        const res = await api.call(sandbox.auth, method, url, method === 'GET' ? undefined : json, { headers });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const context = `${routeName}: ${method} ${url.slice(0, 200)} ${method === 'GET' ? '' : json.slice(0, 200)} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
        expect(res.status, context).toBeGreaterThanOrEqual(400);
        expect(res.status, context).toBeLessThan(500);
        expect(res.body?.error, context).toMatchObject({ type: expect.any(String), code: expect.any(String), message: expect.any(String) });
        // A field at fault is named (a field named '' is named so).
        if (/^parameter_|^invalid_json$|^body_too_large$/.test(res.body.error.code)) expect(res.body.error.param, context).toEqual(expect.any(String));
      }),
      { numRuns: RUNS_PER_ENDPOINT, seed: SEED, endOnFailure: true },
    );
  }
  expect(rowCounts()).toEqual(before);
  expect((await api.call(undefined, 'GET', '/healthz')).status).toBe(200);
  expect((await api.call(sandbox.auth, 'GET', endpoints['customers.list'].path)).body.data).toHaveLength(1);
  const answers = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ');
  console.log(`reliability hostile: ${tried} hostile requests on ${Object.keys(endpoints).length} endpoints (${answers}), rows unchanged, ${((Date.now() - started) / 1000).toFixed(1)}s (seed ${SEED})`);
}, 180_000);
