import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Receiver } from '../support/receiver.js';
import { startTestSandbox, type TestSandbox } from '../support/sandboxes.js';
import { check, KEY_FIELD, type Obj, type World } from './invariants.js';
import { Api, collect, receiptsOf } from './support.js';

// The checker of the load test, proved on a real account's state: clean, it finds
// nothing; each deliberately broken copy (a charge recorded twice, a creation event
// missing, …) is caught, with words that say what broke.

let sb: TestSandbox;
let world: World;
const receiver = new Receiver();
const api = new Api(() => sb.baseUrl);

beforeAll(async () => {
  sb = await startTestSandbox({ webhookRetryScale: 0.001 });
  await receiver.start();
  const auth = { account: sb.account, apiKey: sb.apiKey };
  let n = 0;
  const ok = async (method: string, path: string, body?: Record<string, unknown>) => {
    const key = `unit-${++n}`;
    const withKey = body && path !== '/v1/test-helpers/clock/advance' && !path.includes('/attach') && !path.includes('/capture') ? { ...body, metadata: { [KEY_FIELD]: key } } : body;
    const res = await api.call(auth, method, path, withKey, { key });
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    writes.push({ account: auth.account, request: `${method} ${path}`, key, status: res.status, objectId: res.body.id });
    return res.body;
  };
  const writes: World['writes'] = [];
  const hook = (await api.call(auth, 'POST', '/v1/webhook-endpoints', { url: receiver.url(), enabled_events: ['*'] })).body;
  receiver.secret = hook.secret;
  const customer = await ok('POST', '/v1/customers', { email: 'checker@example.com' });
  const pm = await ok('POST', '/v1/payment-methods', { type: 'card', card: { number: '4242424242424242', exp_month: 12, exp_year: 2040, cvc: '123' } });
  await ok('PUT', `/v1/payment-methods/${pm.id}/attach`, { customer_id: customer.id });
  const paid = await ok('POST', '/v1/payment-intents', { amount: 5000, currency: 'usd', payment_method_types: ['card'], confirm: true, payment_method_id: pm.id });
  await ok('POST', '/v1/refunds', { payment_intent_id: paid.id, amount: 1200 });
  const manual = await ok('POST', '/v1/payment-intents', { amount: 3000, currency: 'usd', payment_method_types: ['card'], confirm: true, capture_method: 'manual', payment_method_id: pm.id });
  await ok('POST', `/v1/payment-intents/${manual.id}/capture`, {});
  await ok('POST', '/v1/subscriptions', { customer_id: customer.id, payment_method_id: pm.id, price: 900, billing_cycle_anchor: '2030-01-15', interval_unit: 'week', interval_count: 1 });
  await ok('POST', '/v1/test-helpers/clock/advance', { to: '2030-01-29' });
  const state = await collect(api, auth);
  await receiver.waitFor(() => new Set(receiver.received.map((r) => r.id)).size === state.events.length, 20_000, 'every event at the receiver');
  world = { accounts: [state], writes, receipts: receiptsOf(hook.id, receiver) };
});
afterAll(async () => {
  await receiver.stop();
  await sb?.close();
});

/** A deep copy of the clean world, broken by `breakIt`. */
function broken(breakIt: (w: World, objects: World['accounts'][0]['objects']) => void): string[] {
  const copy = structuredClone(world);
  breakIt(copy, copy.accounts[0]!.objects);
  return check(copy);
}
const newId = (object: Obj, suffix: string) => ({ ...structuredClone(object), id: `${object.id}${suffix}` });

describe('the invariant checker', () => {
  it('finds nothing wrong in a real account (a sale, a refund, a capture, a subscription billed three times)', () => {
    expect(world.accounts[0]!.objects.payment_intent.filter((pi) => pi.subscription_id)).toHaveLength(3);
    expect(world.accounts[0]!.objects.refund).toHaveLength(1);
    expect(check(world)).toEqual([]);
  });

  it.each<[string, (w: World, o: World['accounts'][0]['objects']) => void, RegExp]>([
    ['a charge recorded twice', (_w, o) => o.charge.push(newId(o.charge.find((c) => c.status === 'succeeded')!, 'dup')), /has 2 succeeded charges/],
    ['a charge recorded twice (its amount)', (_w, o) => o.charge.push(newId(o.charge.find((c) => c.status === 'succeeded')!, 'dup')), /received \d+ but its succeeded charges captured \d+/],
    ['a missing creation event', (w) => (w.accounts[0]!.events = w.accounts[0]!.events.filter((e) => e.type !== 'customer.created')), /customer cus_\w+ has 0 creation events/],
    ['an event listed twice', (w) => w.accounts[0]!.events.splice(3, 0, w.accounts[0]!.events[3]!), /is listed twice/],
    ['a duplicated creation event', (w) => w.accounts[0]!.events.unshift({ ...w.accounts[0]!.events.find((e) => e.type === 'subscription.created')!, id: 'evt_copy' }), /subscription sub_\w+ has 2 creation events/],
    ['an event whose object is gone', (_w, o) => o.customer.pop(), /names cus_\w+, which does not exist/],
    ['an event list out of order', (w) => w.accounts[0]!.events.reverse(), /is listed after the later/],
    ['a key that made two objects', (_w, o) => o.customer.push(newId(o.customer[0]!, 'dup')), /key unit-\d+ produced two customers/],
    ['an answered request whose object is missing', (w) => w.writes.push({ account: w.accounts[0]!.account, request: 'POST /v1/customers', key: 'k', status: 200, objectId: 'cus_missing' }), /cus_missing, which the lists do not hold/],
    ['an answered request whose object is not as answered', (w) => w.writes.push({ account: w.accounts[0]!.account, request: 'POST /v1/test', status: 303, objectId: w.accounts[0]!.objects.customer[0]!.id, expect: { email: 'other@example.com' } }), /has email "checker@example.com", not "other@example.com"/],
    ['refunds beyond what was captured', (_w, o) => (o.refund[0]!.amount = 999_999), /captured \d+ but has 999999 refunded or pending/],
    ['amount_refunded unlike the refunds', (_w, o) => (o.charge.find((c) => c.amount_refunded > 0)!.amount_refunded += 1), /its succeeded refunds sum to/],
    ['a capture twice', (w) => w.accounts[0]!.events.unshift({ ...w.accounts[0]!.events.find((e) => e.type === 'charge.captured')!, id: 'evt_again' }), /was captured 2 times/],
    ['an intent succeeding twice', (w) => w.accounts[0]!.events.unshift({ ...w.accounts[0]!.events.find((e) => e.type === 'payment_intent.succeeded')!, id: 'evt_again' }), /succeeded 2 times/],
    ['a change without its event', (_w, o) => (o.payment_intent[0]!.metadata = { changed: 'silently' }), /does not hold its current state: an event is missing/],
    ['a subscription charged twice for a date', (_w, o) => o.payment_intent.push(newId(o.payment_intent.find((pi) => pi.subscription_id)!, 'dup')), /charged twice for a due date/],
    ['a due date never charged', (_w, o) => o.payment_intent.splice(o.payment_intent.findIndex((pi) => pi.subscription_id), 1), /was charged for \[[\d-, ]+\], due \[2030-01-15, 2030-01-22, 2030-01-29\]/],
    ['an event never delivered', (w) => (w.receipts = w.receipts.filter((r) => r.webhookId !== w.accounts[0]!.events[0]!.id)), /never got 1 of its \d+ events/],
    ['a signature that does not verify', (w) => (w.receipts[0]!.verified = false), /with a signature that does not verify/],
    ['a delivery of another account\'s event', (w) => w.receipts.push({ ...w.receipts[0]!, webhookId: 'evt_other', body: JSON.stringify({ ...JSON.parse(w.receipts[0]!.body), id: 'evt_other' }) }), /got evt_other, not an event of this account/],
  ])('catches %s', (_name, breakIt, expected) => {
    const found = broken(breakIt);
    expect(found.some((v) => expected.test(v)), found.join('\n') || 'no violation found').toBe(true);
  });
});
