import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { inProcessSandbox } from '../../../test/support/in-process.js';
import { dueDates, dueInstant } from '../../domain/schedule.js';

// The subscription state machine and the billing engine through the sandbox's HTTP
// routes, in process. The CLI's side is covered by test/e2e/subscriptions.test.ts.

const GOOD = '4242424242424242';
const DECLINED = '4000000000000002';

let s: Awaited<ReturnType<typeof inProcessSandbox>>;
beforeEach(async () => {
  s = await inProcessSandbox({ clock: '2030-01-15T00:00:00Z' });
});
afterEach(async () => s.close());

async function ok(method: string, url: string, body?: unknown) {
  const res = await s.call(method, url, body);
  expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}

async function card(customer: string, number = GOOD): Promise<string> {
  const pm = await ok('POST', '/v1/payment-methods', { type: 'card', card: { number, exp_month: 12, exp_year: 2040, cvc: '123' } });
  await ok('PUT', `/v1/payment-methods/${pm.id}/attach`, { customer_id: customer });
  return pm.id;
}

async function customerWithCard(number = GOOD): Promise<{ customer: string; pm: string }> {
  const customer = (await ok('POST', '/v1/customers', { email: 'sub@example.com' })).id;
  return { customer, pm: await card(customer, number) };
}

async function subscribe(fields: Record<string, unknown> = {}, number = GOOD) {
  const { customer, pm } = await customerWithCard(number);
  return ok('POST', '/v1/subscriptions', {
    customer_id: customer,
    payment_method_id: pm,
    price: 1500,
    billing_cycle_anchor: '2030-01-31',
    interval_unit: 'month',
    interval_count: 1,
    ...fields,
  });
}

const advance = (to: string) => ok('POST', '/v1/test-helpers/clock/advance', { to });
const get = (id: string) => ok('GET', `/v1/subscriptions/${id}`);

/** The subscription's payment intents, oldest first. */
async function intentsOf(id: string): Promise<Array<{ id: string; status: string; created: string; subscription_id: string }>> {
  return (await ok('GET', `/v1/payment-intents?subscription_id=${id}&limit=100`)).data.reverse();
}

const createdDates = async (id: string) => (await intentsOf(id)).map((pi) => pi.created);

describe('create', () => {
  it('with an anchor of today, takes the first payment at once: the anchor is reached (active, or past_due when declined)', async () => {
    const paid = await subscribe({ billing_cycle_anchor: '2030-01-15' });
    expect(paid).toMatchObject({ status: 'active', next_payment_at: '2030-02-15T00:00:00Z' });
    expect((await intentsOf(paid.id)).map((pi) => [pi.id, pi.status, pi.created])).toEqual([[paid.latest_payment_intent_id, 'succeeded', '2030-01-15T00:00:00Z']]);
    const types = (await ok('GET', '/v1/events?limit=100')).data.map((e: { type: string }) => e.type).reverse();
    expect(types.slice(types.indexOf('subscription.created'))).toEqual(['subscription.created', 'payment_intent.created', 'payment_intent.succeeded', 'charge.succeeded', 'subscription.updated']);

    const declined = await subscribe({ billing_cycle_anchor: '2030-01-15' }, DECLINED);
    expect(declined).toMatchObject({ status: 'past_due', next_payment_at: null });
    expect((await intentsOf(declined.id)).map((pi) => pi.status)).toEqual(['requires_payment_method']);
    // Nothing is left due for the next advance to charge again.
    await advance('2030-01-16');
    expect((await intentsOf(paid.id))).toHaveLength(1);
  });

  it('starts pending, its first payment due at the anchor, and emits subscription.created', async () => {
    const sub = await subscribe({ metadata: { order: '42' }, platform_fee_amount: 100, cancel_at: '2031-01-01' });
    expect(sub).toMatchObject({
      object: 'subscription',
      status: 'pending',
      price: 1500,
      currency: 'usd',
      billing_cycle_anchor: '2030-01-31',
      interval_unit: 'month',
      interval_count: 1,
      platform_fee_amount: 100,
      metadata: { order: '42' },
      cancel_at: '2031-01-01',
      next_payment_at: '2030-01-31T00:00:00Z',
      latest_payment_intent_id: null,
      created: '2030-01-15T00:00:00Z',
      livemode: false,
    });
    expect(sub.id).toMatch(/^sub_/);
    const events = s.sandbox.store.events.list(s.account.id, { limit: 1, type: 'subscription.created' }).data;
    expect(events[0]?.data.object).toEqual(sub);
  });

  it('needs an existing customer and a card attached to that customer', async () => {
    const { customer, pm } = await customerWithCard();
    const other = await customerWithCard();
    const loose = (await ok('POST', '/v1/payment-methods', { type: 'card', card: { number: GOOD, exp_month: 12, exp_year: 2040, cvc: '123' } })).id;
    const base = { customer_id: customer, payment_method_id: pm, price: 1500, billing_cycle_anchor: '2030-02-01', interval_unit: 'week', interval_count: 1 };
    const before = s.counts();
    const cases: Array<[Record<string, unknown>, number, string, string]> = [
      [{ customer_id: 'cus_missing' }, 404, 'resource_missing', 'customer_id'],
      [{ payment_method_id: 'pm_missing' }, 404, 'resource_missing', 'payment_method_id'],
      [{ payment_method_id: loose }, 400, 'parameter_invalid', 'payment_method_id'],
      [{ payment_method_id: other.pm }, 400, 'parameter_invalid', 'payment_method_id'],
      [{ billing_cycle_anchor: '2030-01-14' }, 400, 'parameter_invalid', 'billing_cycle_anchor'],
      [{ cancel_at: '2030-02-01' }, 400, 'parameter_invalid', 'cancel_at'],
      [{ interval_unit: 'day' }, 400, 'parameter_invalid', 'interval_unit'],
      [{ interval_count: 0 }, 400, 'parameter_invalid', 'interval_count'],
    ];
    for (const [change, status, code, param] of cases) {
      const res = await s.call('POST', '/v1/subscriptions', { ...base, ...change });
      expect([res.status, res.body.error?.code, res.body.error?.param], JSON.stringify(change)).toEqual([status, code, param]);
    }
    expect(s.counts()).toEqual(before);
    expect((await s.call('POST', '/v1/subscriptions', { ...base, billing_cycle_anchor: '2030-01-15' })).status).toBe(200);
  });

  it('says what to do with a card that is not the customer\'s: attach an unattached one; another customer\'s cannot be, so create one', async () => {
    const { customer, pm } = await customerWithCard();
    const other = await customerWithCard();
    const loose = (await ok('POST', '/v1/payment-methods', { type: 'card', card: { number: GOOD, exp_month: 12, exp_year: 2040, cvc: '123' } })).id;
    const base = { customer_id: customer, payment_method_id: pm, price: 1500, billing_cycle_anchor: '2030-02-01', interval_unit: 'week', interval_count: 1 };
    const messageFor = async (url: string, body: Record<string, unknown>) => (await s.call('POST', url, body)).body.error?.message;
    expect(await messageFor('/v1/subscriptions', { ...base, payment_method_id: loose })).toBe(
      `Invalid payment_method_id: ${loose} is not attached to customer ${customer}; attach it first (pay payment-methods attach ${loose} --customer ${customer}).`,
    );
    const othersCard = `Invalid payment_method_id: ${other.pm} is attached to customer ${other.customer}, and a payment method belongs to one customer; create one for ${customer} (pay payment-methods create --customer ${customer}).`;
    expect(await messageFor('/v1/subscriptions', { ...base, payment_method_id: other.pm })).toBe(othersCard);
    const sub = await ok('POST', '/v1/subscriptions', base);
    expect(await messageFor(`/v1/subscriptions/${sub.id}`, { payment_method_id: other.pm })).toBe(othersCard);
    // What the first message says to do works; the second's would not (409 already attached).
    await ok('PUT', `/v1/payment-methods/${loose}/attach`, { customer_id: customer });
    expect((await s.call('PUT', `/v1/payment-methods/${other.pm}/attach`, { customer_id: customer })).status).toBe(409);
  });
});

describe('the billing engine', () => {
  it('pending → active at the anchor: spec section 6 rule 2\'s events, each intent tied to the subscription', async () => {
    const sub = await subscribe({ metadata: { order: '42' } });
    await advance('2030-01-31');
    const active = await get(sub.id);
    expect(active).toMatchObject({ status: 'active', next_payment_at: '2030-02-28T00:00:00Z' });
    const [intent] = await intentsOf(sub.id);
    // Spec section 4 rule 10: linked by subscription_id, and findable by the subscription's metadata.
    expect(intent).toMatchObject({ status: 'succeeded', subscription_id: sub.id, created: '2030-01-31T00:00:00Z', amount: 1500, customer_id: sub.customer_id, metadata: { order: '42' } });
    expect(active.latest_payment_intent_id).toBe(intent!.id);

    const events = s.sandbox.store.events.list(s.account.id, { limit: 100 }).data.reverse();
    expect(events.map((e) => e.type)).toEqual([
      'customer.created',
      'payment_method.attached',
      'subscription.created',
      'payment_intent.created',
      'payment_intent.succeeded',
      'charge.succeeded',
      'subscription.updated',
    ]);
    for (const e of events.filter((e) => e.type.startsWith('payment_intent.') || e.type.startsWith('charge.'))) {
      expect(e.data.subscription_id, e.type).toBe(sub.id);
    }
    expect(events.find((e) => e.type === 'payment_intent.succeeded')?.data.payment_intent_id).toBe(intent!.id);
    expect(events.at(-1)?.data.object).toMatchObject({ status: 'active', next_payment_at: '2030-02-28T00:00:00Z' });
  });

  it('charges on each due date of the anchor-derived schedule, Jan 31 monthly clamped to month ends', async () => {
    const sub = await subscribe();
    await advance('2030-06-15');
    expect(await createdDates(sub.id)).toEqual(['2030-01-31', '2030-02-28', '2030-03-31', '2030-04-30', '2030-05-31'].map(dueInstant));
    expect(await get(sub.id)).toMatchObject({ status: 'active', next_payment_at: '2030-06-30T00:00:00Z' });
  });

  it('weekly count 2 over a year, in steps or at once, charges the same dates', async () => {
    const a = await subscribe({ billing_cycle_anchor: '2030-01-16', interval_unit: 'week', interval_count: 2 });
    for (const to of ['2030-02-01', '2030-02-13', '2030-07-04T12:00:00Z', '2031-01-16']) await advance(to);
    const expected = dueDates('2030-01-16', 'week', 2, 27).map(dueInstant);
    expect(expected.at(-1)).toBe('2031-01-15T00:00:00Z');
    expect(await createdDates(a.id)).toEqual(expected);
  });

  it('a declined first payment leaves it past_due with no further attempts', async () => {
    const sub = await subscribe({}, DECLINED);
    await advance('2030-05-01');
    expect(await get(sub.id)).toMatchObject({ status: 'past_due', next_payment_at: null });
    const intents = await intentsOf(sub.id);
    expect(intents.map((pi) => [pi.status, pi.created])).toEqual([['requires_payment_method', '2030-01-31T00:00:00Z']]);
  });

  it('active → past_due on a decline; retry follows the new intent: still past_due, then active', async () => {
    const sub = await subscribe();
    await advance('2030-02-01');
    const declining = await card(sub.customer_id, DECLINED);
    await ok('POST', `/v1/subscriptions/${sub.id}`, { payment_method_id: declining });
    await advance('2030-03-10');
    expect(await get(sub.id)).toMatchObject({ status: 'past_due', next_payment_at: null });

    const failed = await s.call('POST', `/v1/subscriptions/${sub.id}/retry`);
    expect(failed.status).toBe(402);
    expect(failed.body.error).toMatchObject({ type: 'card_error', code: 'card_declined', payment_intent: { status: 'requires_payment_method', subscription_id: sub.id }, subscription: { status: 'past_due' } });
    expect(await get(sub.id)).toMatchObject({ status: 'past_due', latest_payment_intent_id: failed.body.error.payment_intent.id });

    await ok('POST', `/v1/subscriptions/${sub.id}`, { payment_method_id: await card(sub.customer_id) });
    const retried = await ok('POST', `/v1/subscriptions/${sub.id}/retry`);
    expect(retried).toMatchObject({ status: 'active', next_payment_at: '2030-03-31T00:00:00Z' });
    expect((await intentsOf(sub.id)).map((pi) => [pi.status, pi.created])).toEqual([
      ['succeeded', '2030-01-31T00:00:00Z'],
      ['requires_payment_method', '2030-02-28T00:00:00Z'],
      ['requires_payment_method', '2030-03-10T00:00:00Z'],
      ['succeeded', '2030-03-10T00:00:00Z'],
    ]);
    await advance('2030-04-01');
    expect((await createdDates(sub.id)).at(-1)).toBe('2030-03-31T00:00:00Z');
  });

  it('a failed payment that a later retry paid for cannot be confirmed: the period would be charged twice', async () => {
    const sub = await subscribe();
    await advance('2030-02-01');
    await ok('POST', `/v1/subscriptions/${sub.id}`, { payment_method_id: await card(sub.customer_id, DECLINED) });
    await advance('2030-03-01');
    const failed = (await intentsOf(sub.id)).find((pi) => pi.status === 'requires_payment_method')!;
    const good = await card(sub.customer_id);
    await ok('POST', `/v1/subscriptions/${sub.id}`, { payment_method_id: good });
    const retried = await ok('POST', `/v1/subscriptions/${sub.id}/retry`);
    const charges = (await ok('GET', '/v1/charges?limit=100')).data.length;

    const confirmed = await s.call('POST', `/v1/payment-intents/${failed.id}/confirm`, { payment_method_id: good });
    expect(confirmed.status).toBe(409);
    expect(confirmed.body.error).toMatchObject({ type: 'state_error', code: 'invalid_state' });
    expect(confirmed.body.error.message).toBe(`Cannot confirm payment intent ${failed.id}: its status is requires_payment_method, and a later payment of subscription ${sub.id}, ${retried.latest_payment_intent_id}, has succeeded since: confirming this one would charge the customer a second time.`);
    expect((await ok('GET', '/v1/charges?limit=100')).data).toHaveLength(charges);
    expect(await ok('GET', `/v1/payment-intents/${failed.id}`)).toMatchObject({ status: 'requires_payment_method' });
  });

  it('a failed payment cannot be confirmed once an earlier failed payment of the same period was paid directly: the period would be charged twice', async () => {
    const sub = await subscribe({ billing_cycle_anchor: '2030-01-15' }, DECLINED);
    const declinedRetry = await s.call('POST', `/v1/subscriptions/${sub.id}/retry`);
    expect(declinedRetry.status).toBe(402);
    const [first, second] = await intentsOf(sub.id);
    const good = await card(sub.customer_id);
    // Spec section 3 rule 2: paying the first attempt directly leaves the subscription past_due.
    await ok('POST', `/v1/payment-intents/${first!.id}/confirm`, { payment_method_id: good });
    expect(await get(sub.id)).toMatchObject({ status: 'past_due' });
    const charges = (await ok('GET', '/v1/charges?limit=100')).data.length;

    const confirmed = await s.call('POST', `/v1/payment-intents/${second!.id}/confirm`, { payment_method_id: good });
    expect(confirmed.status).toBe(409);
    expect(confirmed.body.error).toMatchObject({ type: 'state_error', code: 'invalid_state' });
    expect(confirmed.body.error.message).toBe(`Cannot confirm payment intent ${second!.id}: its status is requires_payment_method, and ${first!.id}, a failed payment of subscription ${sub.id} for the same period, has been paid since: confirming this one would charge the customer a second time.`);
    expect((await ok('GET', '/v1/charges?limit=100')).data).toHaveLength(charges);
    expect(await ok('GET', `/v1/payment-intents/${second!.id}`)).toMatchObject({ status: 'requires_payment_method' });
  });

  it('a retry is refused once the failed payment it would make again was paid directly: the period would be charged twice', async () => {
    const sub = await subscribe({ billing_cycle_anchor: '2030-01-15' }, DECLINED);
    const [failed] = await intentsOf(sub.id);
    const good = await card(sub.customer_id);
    // Spec section 3 rule 2: paying the failed attempt directly leaves the subscription past_due.
    await ok('POST', `/v1/payment-intents/${failed!.id}/confirm`, { payment_method_id: good });
    await ok('POST', `/v1/subscriptions/${sub.id}`, { payment_method_id: good });
    const charges = (await ok('GET', '/v1/charges?limit=100')).data.length;

    const retried = await s.call('POST', `/v1/subscriptions/${sub.id}/retry`);
    expect(retried.status).toBe(409);
    expect(retried.body.error).toMatchObject({ type: 'state_error', code: 'invalid_state' });
    expect(retried.body.error.message).toBe(`Cannot retry subscription ${sub.id}: its status is past_due, and its failed payment ${failed!.id} has been paid directly since (which leaves a subscription past_due): a retry would charge the customer a second time for that period. To bill the periods after it, cancel this subscription and create a new one.`);
    expect((await ok('GET', '/v1/charges?limit=100')).data).toHaveLength(charges);
    expect(await intentsOf(sub.id)).toHaveLength(1);
    expect(await get(sub.id)).toMatchObject({ status: 'past_due', latest_payment_intent_id: failed!.id });
  });

  it('a retry is refused when an earlier failed payment of its run was paid directly after a later retry declined', async () => {
    const sub = await subscribe({ billing_cycle_anchor: '2030-01-15' }, DECLINED);
    expect((await s.call('POST', `/v1/subscriptions/${sub.id}/retry`)).status).toBe(402);
    const [first] = await intentsOf(sub.id);
    const good = await card(sub.customer_id);
    await ok('POST', `/v1/payment-intents/${first!.id}/confirm`, { payment_method_id: good });
    await ok('POST', `/v1/subscriptions/${sub.id}`, { payment_method_id: good });

    const retried = await s.call('POST', `/v1/subscriptions/${sub.id}/retry`);
    expect([retried.status, retried.body.error.code]).toEqual([409, 'invalid_state']);
    expect(retried.body.error.message).toContain(`its failed payment ${first!.id} has been paid directly since`);
    expect(await intentsOf(sub.id)).toHaveLength(2);
  });

  it('a failed payment of a later period can be confirmed: an earlier period\'s payment does not supersede it', async () => {
    const sub = await subscribe({ billing_cycle_anchor: '2030-01-15' }, DECLINED);
    const good = await card(sub.customer_id);
    await ok('POST', `/v1/subscriptions/${sub.id}`, { payment_method_id: good });
    await ok('POST', `/v1/subscriptions/${sub.id}/retry`);
    await ok('POST', `/v1/subscriptions/${sub.id}`, { payment_method_id: await card(sub.customer_id, DECLINED) });
    await advance('2030-02-15');
    const failed = (await intentsOf(sub.id)).at(-1)!;
    expect(failed.status).toBe('requires_payment_method');
    expect(await ok('POST', `/v1/payment-intents/${failed.id}/confirm`, { payment_method_id: good })).toMatchObject({ status: 'succeeded' });
  });

  it('retry, pause and resume only from their states (409 naming the status)', async () => {
    const sub = await subscribe();
    for (const action of ['retry', 'pause', 'resume']) {
      const res = await s.call('POST', `/v1/subscriptions/${sub.id}/${action}`);
      expect([res.status, res.body.error.code], action).toEqual([409, 'invalid_state']);
      expect(res.body.error.message).toContain('pending');
    }
  });

  it('paused skips due dates; resume continues the regular schedule, never charging the missed ones', async () => {
    const sub = await subscribe({ billing_cycle_anchor: '2030-01-15', interval_unit: 'week' });
    await advance('2030-01-20');
    expect(await ok('POST', `/v1/subscriptions/${sub.id}/pause`)).toMatchObject({ status: 'paused', next_payment_at: null });
    await advance('2030-02-05T00:00:00Z');
    const resumed = await ok('POST', `/v1/subscriptions/${sub.id}/resume`);
    expect(resumed).toMatchObject({ status: 'active', next_payment_at: '2030-02-12T00:00:00Z' });
    await advance('2030-02-20');
    expect(await createdDates(sub.id)).toEqual(['2030-01-15', '2030-02-12', '2030-02-19'].map(dueInstant));
  });

  it('cancel_at reached cancels before a payment due that day', async () => {
    const sub = await subscribe({ billing_cycle_anchor: '2030-01-15', cancel_at: '2030-03-15' });
    await advance('2030-12-31');
    expect(await createdDates(sub.id)).toEqual(['2030-01-15', '2030-02-15'].map(dueInstant));
    expect(await get(sub.id)).toMatchObject({ status: 'canceled', next_payment_at: null, canceled_at: '2030-03-15T00:00:00Z' });
    const canceled = s.sandbox.store.events.list(s.account.id, { limit: 10, type: 'subscription.canceled' }).data;
    expect(canceled.map((e) => [e.created, (e.data.object as { id: string }).id])).toEqual([['2030-03-15T00:00:00Z', sub.id]]);
  });

  it('a single future payment (cancel_at = anchor + 1 day) charges exactly once and ends canceled', async () => {
    const sub = await subscribe({ billing_cycle_anchor: '2030-02-10', interval_unit: 'year', cancel_at: '2030-02-11' });
    await advance('2030-02-10');
    // Paid, and no automatic payment is ahead: next_payment_at says none, here and in the event of becoming active.
    expect(await get(sub.id)).toMatchObject({ status: 'active', next_payment_at: null });
    const updated = s.sandbox.store.events.list(s.account.id, { limit: 1, type: 'subscription.updated' }).data;
    expect(updated[0]?.data.object).toMatchObject({ id: sub.id, status: 'active', next_payment_at: null });
    await advance('2032-01-01');
    expect(await createdDates(sub.id)).toEqual(['2030-02-10T00:00:00Z']);
    expect(await get(sub.id)).toMatchObject({ status: 'canceled' });
  });

  it('a cancel_at set on or before the next due date takes that payment away; cleared, it comes back', async () => {
    const sub = await subscribe({ billing_cycle_anchor: '2030-01-15', cancel_at: null });
    expect(sub.cancel_at).toBeNull();
    await advance('2030-01-20');
    expect(await get(sub.id)).toMatchObject({ status: 'active', next_payment_at: '2030-02-15T00:00:00Z' });
    expect(await ok('POST', `/v1/subscriptions/${sub.id}`, { cancel_at: '2030-02-15' })).toMatchObject({ next_payment_at: null });
    expect(await ok('POST', `/v1/subscriptions/${sub.id}`, { cancel_at: '2030-02-16' })).toMatchObject({ next_payment_at: '2030-02-15T00:00:00Z' });
    expect(await ok('POST', `/v1/subscriptions/${sub.id}`, { cancel_at: '2030-02-01' })).toMatchObject({ next_payment_at: null });
    expect(await ok('POST', `/v1/subscriptions/${sub.id}`, { cancel_at: null })).toMatchObject({ next_payment_at: '2030-02-15T00:00:00Z' });
  });

  it('a payment due today but created after midnight is charged at the next advance, at once', async () => {
    await advance('2030-01-15T09:30:00Z');
    const sub = await subscribe({ billing_cycle_anchor: '2030-01-15', interval_unit: 'week' });
    await advance('2030-01-15T09:30:00Z');
    expect(await createdDates(sub.id)).toEqual(['2030-01-15T09:30:00Z']);
    expect(await get(sub.id)).toMatchObject({ status: 'active', next_payment_at: '2030-01-22T00:00:00Z' });
  });

  it('updating a subscription\'s intent directly never changes the subscription (rule 2)', async () => {
    const sub = await subscribe({}, DECLINED);
    await advance('2030-02-01');
    const [failed] = await intentsOf(sub.id);
    const good = await card(sub.customer_id);
    await ok('POST', `/v1/payment-intents/${failed!.id}`, { amount: 1600 });
    expect(await ok('POST', `/v1/payment-intents/${failed!.id}/confirm`, { payment_method_id: good })).toMatchObject({ status: 'succeeded' });
    expect(await get(sub.id)).toMatchObject({ status: 'past_due', next_payment_at: null });
  });
});

describe('update, cancel and list', () => {
  it('lists every payment attempt of a subscription (spec section 4), one page unless a limit is asked for', async () => {
    const sub = await subscribe({ billing_cycle_anchor: '2030-01-16', interval_unit: 'week' });
    await advance('2030-04-20');
    const all = await ok('GET', `/v1/payment-intents?subscription_id=${sub.id}`);
    expect([all.data.length, all.has_more]).toEqual([14, false]);
    const page = await ok('GET', `/v1/payment-intents?subscription_id=${sub.id}&limit=5`);
    expect([page.data.length, page.has_more]).toEqual([5, true]);
    // Other lists keep DESIGN's page of 10.
    const unfiltered = await ok('GET', '/v1/payment-intents');
    expect([unfiltered.data.length, unfiltered.has_more]).toEqual([10, true]);
  });

  it('an update that changes nothing is no change: no subscription.updated, the same object', async () => {
    const sub = await subscribe({ metadata: { plan: 'gold' } });
    const updates = async () => (await ok('GET', '/v1/events?type=subscription.updated&limit=100')).data.filter((e: { data: { object: { id: string } } }) => e.data.object.id === sub.id).length;
    for (const body of [{}, { cancel_at: null }, { platform_fee_amount: null }, { metadata: { plan: 'gold' } }, { metadata: { absent: '' } }, { payment_method_id: sub.payment_method_id }]) {
      expect(await ok('POST', `/v1/subscriptions/${sub.id}`, body), JSON.stringify(body)).toEqual(sub);
    }
    expect(await updates()).toBe(0);
    expect(await ok('POST', `/v1/subscriptions/${sub.id}`, { metadata: { plan: 'silver' } })).toMatchObject({ metadata: { plan: 'silver' } });
    expect(await updates()).toBe(1);
  });

  it('answers the immutable fields with 400 parameter_immutable naming each, changing nothing', async () => {
    const sub = await subscribe();
    for (const [param, value] of [['customer_id', 'cus_other'], ['billing_cycle_anchor', '2030-03-01'], ['interval_unit', 'week'], ['interval_count', 3]] as const) {
      const res = await s.call('POST', `/v1/subscriptions/${sub.id}`, { [param]: value });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'parameter_immutable', param, message: expect.stringContaining('immutable after creation') });
    }
    expect(await get(sub.id)).toEqual(sub);
    // An unknown field's answer lists what an update takes: the fixed fields are not among them.
    const unknown = await s.call('POST', `/v1/subscriptions/${sub.id}`, { price: 5 });
    expect(unknown.body.error).toMatchObject({
      code: 'parameter_unknown',
      param: 'price',
      message: 'Received unknown parameter: price. This request takes: payment_method_id, metadata, platform_fee_amount, cancel_at.',
    });
  });

  it('changes payment method, metadata (merged), fee and cancel_at, and emits subscription.updated', async () => {
    const sub = await subscribe({ metadata: { a: '1', b: '2' } });
    const pm = await card(sub.customer_id, '5555555555554444');
    const updated = await ok('POST', `/v1/subscriptions/${sub.id}`, { payment_method_id: pm, metadata: { b: '', c: '3' }, platform_fee_amount: 200, cancel_at: '2030-06-01' });
    expect(updated).toMatchObject({ payment_method_id: pm, metadata: { a: '1', c: '3' }, platform_fee_amount: 200, cancel_at: '2030-06-01', status: 'pending' });
    expect(await ok('POST', `/v1/subscriptions/${sub.id}`, { cancel_at: null, platform_fee_amount: null })).toMatchObject({ cancel_at: null, platform_fee_amount: null });
    const other = await customerWithCard();
    const res = await s.call('POST', `/v1/subscriptions/${sub.id}`, { payment_method_id: other.pm });
    expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param: 'payment_method_id' });
    expect((await s.call('POST', `/v1/subscriptions/${sub.id}`, { cancel_at: '2030-01-31' })).body.error).toMatchObject({ param: 'cancel_at' });
    expect((await s.call('POST', `/v1/subscriptions/${sub.id}`, { platform_fee_amount: 1501 })).body.error).toMatchObject({ param: 'platform_fee_amount' });
    expect(s.sandbox.store.events.list(s.account.id, { limit: 100, type: 'subscription.updated' }).data).toHaveLength(2);
  });

  it('cancels from every status, once: canceling again is a 409 state_error, as for intents, and changes nothing', async () => {
    const pending = await subscribe();
    const active = await subscribe({ billing_cycle_anchor: '2030-01-20' });
    const pastDue = await subscribe({ billing_cycle_anchor: '2030-01-20' }, DECLINED);
    const paused = await subscribe({ billing_cycle_anchor: '2030-01-20' });
    await advance('2030-01-21');
    await ok('POST', `/v1/subscriptions/${paused.id}/pause`);
    const statuses = [];
    for (const sub of [pending, active, pastDue, paused]) {
      statuses.push((await get(sub.id)).status);
      expect(await ok('POST', `/v1/subscriptions/${sub.id}/cancel`)).toMatchObject({ status: 'canceled', next_payment_at: null, canceled_at: '2030-01-21T00:00:00Z' });
    }
    expect(statuses).toEqual(['pending', 'active', 'past_due', 'paused']);
    const before = await get(active.id);
    const again = await s.call('POST', `/v1/subscriptions/${active.id}/cancel`);
    expect({ status: again.status, error: again.body.error }).toEqual({
      status: 409,
      error: { type: 'state_error', code: 'invalid_state', message: `Cannot cancel subscription ${active.id}: its status is canceled.` },
    });
    expect(await get(active.id)).toEqual(before);
    expect(s.sandbox.store.events.list(s.account.id, { limit: 100, type: 'subscription.canceled' }).data).toHaveLength(4);
    expect((await s.call('POST', `/v1/subscriptions/${active.id}`, { metadata: { a: 'b' } })).status).toBe(409);
    await advance('2031-01-01');
    expect(await intentsOf(pending.id)).toEqual([]);
  });

  it('lists by status and customer, with a cursor that stays stable while statuses change', async () => {
    const subs = [];
    for (let i = 0; i < 5; i++) subs.push(await subscribe({ billing_cycle_anchor: i < 3 ? '2030-01-20' : '2030-03-01' }));
    const first = await ok('GET', '/v1/subscriptions?limit=2');
    expect(first.data.map((x: { id: string }) => x.id)).toEqual([subs[4].id, subs[3].id]);
    await advance('2030-01-20');
    const rest = await ok('GET', `/v1/subscriptions?limit=10&starting_after=${first.data[1].id}`);
    expect(rest.data.map((x: { id: string }) => x.id)).toEqual([subs[2].id, subs[1].id, subs[0].id]);
    expect((await ok('GET', '/v1/subscriptions?status=active&limit=10')).data.map((x: { id: string }) => x.id)).toEqual([subs[2].id, subs[1].id, subs[0].id]);
    expect((await ok('GET', `/v1/subscriptions?customer_id=${subs[3].customer_id}`)).data.map((x: { id: string }) => x.id)).toEqual([subs[3].id]);
    expect((await s.call('GET', '/v1/subscriptions?status=late')).body.error).toMatchObject({ param: 'status' });
  });
});

describe('clock advance', () => {
  it('never goes backwards, and replays with its Idempotency-Key', async () => {
    const back = await s.call('POST', '/v1/test-helpers/clock/advance', { to: '2030-01-14' });
    expect(back.body.error).toMatchObject({ code: 'parameter_invalid', param: 'to' });
    const first = await s.call('POST', '/v1/test-helpers/clock/advance', { days: 3 }, { 'idempotency-key': 'adv-1' });
    const again = await s.call('POST', '/v1/test-helpers/clock/advance', { days: 3 }, { 'idempotency-key': 'adv-1' });
    expect(first.body).toEqual({ object: 'test_clock', now: '2030-01-18T00:00:00Z' });
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  /** A clock advance cut short at `at` (as by a crash): due work that fails there while `on.fail` holds. */
  function cutShortAt(at: string) {
    const on = { fail: true };
    s.sandbox.clock.register({
      nextDue: (ctx) => (on.fail && Date.parse(ctx.now) < Date.parse(at) ? at : undefined),
      run: (ctx) => {
        if (on.fail && ctx.now === at) throw new Error('the sandbox died here');
      },
    });
    return on;
  }

  it('refuses the Idempotency-Key of an advance cut short with another body (422), then resumes it with its own', async () => {
    const weekly = await subscribe({ billing_cycle_anchor: '2030-01-16', interval_unit: 'week' });
    const key = { 'idempotency-key': 'adv-365' };
    const on = cutShortAt('2030-03-01T00:00:00Z');
    expect((await s.call('POST', '/v1/test-helpers/clock/advance', { days: 365 }, key)).status).toBe(500);
    on.fail = false;
    const stopped = (await ok('GET', '/v1/test-helpers/clock')).now;
    expect(stopped).toBe('2030-02-27T00:00:00Z');

    const other = await s.call('POST', '/v1/test-helpers/clock/advance', { days: 1 }, key);
    expect([other.status, other.body.error?.code]).toEqual([422, 'idempotency_key_reused']);
    expect((await ok('GET', '/v1/test-helpers/clock')).now).toBe(stopped);

    const resumed = await s.call('POST', '/v1/test-helpers/clock/advance', { days: 365 }, key);
    expect([resumed.status, resumed.body]).toEqual([200, { object: 'test_clock', now: '2031-01-15T00:00:00Z' }]);
    // Every week once, the target's own payment included.
    expect(await createdDates(weekly.id)).toEqual(dueDates('2030-01-16', 'week', 1, 53).map(dueInstant));
    expect((await get(weekly.id)).next_payment_at).toBe('2031-01-22T00:00:00Z');
  });

  it('a retry of an advance that finished but whose answer was never recorded (killed in between) moves the clock no further', async () => {
    const monthly = await subscribe({ billing_cycle_anchor: '2030-01-20' });
    const key = { 'idempotency-key': 'adv-60' };
    const save = vi.spyOn(s.sandbox.store.idempotency, 'save').mockImplementationOnce(() => {
      throw new Error('the sandbox died before recording the answer');
    });
    expect((await s.call('POST', '/v1/test-helpers/clock/advance', { days: 60 }, key)).status).toBe(500);
    save.mockRestore();
    expect((await ok('GET', '/v1/test-helpers/clock')).now).toBe('2030-03-16T00:00:00Z');

    const retried = await s.call('POST', '/v1/test-helpers/clock/advance', { days: 60 }, key);
    expect([retried.status, retried.body]).toEqual([200, { object: 'test_clock', now: '2030-03-16T00:00:00Z' }]);
    expect(await createdDates(monthly.id)).toEqual(['2030-01-20', '2030-02-20'].map(dueInstant));
    const replayed = await s.call('POST', '/v1/test-helpers/clock/advance', { days: 60 }, key);
    expect([replayed.headers['idempotent-replayed'], replayed.body.now]).toEqual(['true', '2030-03-16T00:00:00Z']);
  });

  /** Starts a ten-year advance with `key` and, its answer still to come, returns once the clock has begun to move and before it ends. */
  async function advanceUnderway(key: Record<string, string>) {
    const answer = s.call('POST', '/v1/test-helpers/clock/advance', { days: 3650 }, key);
    let now = '2030-01-15T00:00:00Z';
    while (now === '2030-01-15T00:00:00Z') {
      await new Promise((resolve) => setImmediate(resolve));
      now = (await ok('GET', '/v1/test-helpers/clock')).now;
    }
    expect(Date.parse(now)).toBeLessThan(Date.parse('2040-01-13T00:00:00Z'));
    return { answer };
  }

  it('a retry of an advance still running (its answer timed out, its connection reset) waits for it and answers as it does, moving the clock no further', async () => {
    const weekly = await subscribe({ billing_cycle_anchor: '2030-01-16', interval_unit: 'week' });
    for (let i = 0; i < 9; i++) await subscribe({ billing_cycle_anchor: '2030-01-16', interval_unit: 'week' });
    const key = { 'idempotency-key': 'adv-long' };
    const { answer: first } = await advanceUnderway(key);

    const retried = await s.call('POST', '/v1/test-helpers/clock/advance', { days: 3650 }, key);
    expect([retried.status, retried.body]).toEqual([200, { object: 'test_clock', now: '2040-01-13T00:00:00Z' }]);
    expect((await first).body).toEqual(retried.body);
    // Every week once: 522 payments, listed a page of 100 at a time.
    const created: string[] = [];
    for (let page = await ok('GET', `/v1/payment-intents?subscription_id=${weekly.id}&limit=100`); ; ) {
      created.push(...page.data.map((pi: { created: string }) => pi.created));
      if (!page.has_more) break;
      page = await ok('GET', `/v1/payment-intents?subscription_id=${weekly.id}&limit=100&starting_after=${page.data.at(-1).id}`);
    }
    expect(created.reverse()).toEqual(dueDates('2030-01-16', 'week', 1, 522).map(dueInstant));
  });

  it('the key of an advance still running is 422 for any other request, which changes nothing, and replays the advance once it ends', async () => {
    for (let i = 0; i < 10; i++) await subscribe({ billing_cycle_anchor: '2030-01-16', interval_unit: 'week' });
    const key = { 'idempotency-key': 'adv-busy' };
    const { answer: first } = await advanceUnderway(key);
    const customers = (await ok('GET', '/v1/customers?limit=100')).data.length;

    // Taken by a request before its answer is recorded: run, it was overwritten by the advance's record, and its own retry was 422.
    const other = await s.call('POST', '/v1/customers', { email: 'busy@example.com' }, key);
    expect([other.status, other.body.error?.code]).toEqual([422, 'idempotency_key_reused']);
    expect((await first).body).toEqual({ object: 'test_clock', now: '2040-01-13T00:00:00Z' });
    expect((await ok('GET', '/v1/customers?limit=100')).data.length).toBe(customers);
    const replayed = await s.call('POST', '/v1/test-helpers/clock/advance', { days: 3650 }, key);
    expect([replayed.headers['idempotent-replayed'], replayed.body.now]).toEqual(['true', '2040-01-13T00:00:00Z']);
  });

  it('refuses a reset while the clock is being advanced (409), which would otherwise go on from the reset clock', async () => {
    const subs = [];
    for (let i = 0; i < 10; i++) subs.push(await subscribe({ billing_cycle_anchor: '2030-01-16', interval_unit: 'week' }));
    const long = s.call('POST', '/v1/test-helpers/clock/advance', { to: '2040-01-01' });
    let now = '2030-01-15T00:00:00Z';
    // inject answers without a turn of the event loop: give the advance its turns between its batches.
    while (now === '2030-01-15T00:00:00Z') {
      await new Promise((resolve) => setImmediate(resolve));
      now = (await ok('GET', '/v1/test-helpers/clock')).now;
    }
    expect(Date.parse(now)).toBeLessThan(Date.parse('2040-01-01T00:00:00Z'));

    const reset = await s.call('POST', '/v1/test-helpers/reset');
    expect([reset.status, reset.body.error?.code]).toEqual([409, 'invalid_state']);
    expect((await long).body).toEqual({ object: 'test_clock', now: '2040-01-01T00:00:00Z' });
    expect((await get(subs[0].id)).status).toBe('active');

    // Once it is over, the reset works and the clock stays where the reset put it.
    expect((await ok('POST', '/v1/test-helpers/reset')).clock.now).toBe('2030-01-15T00:00:00Z');
    expect((await ok('GET', '/v1/test-helpers/clock')).now).toBe('2030-01-15T00:00:00Z');
  });
});
