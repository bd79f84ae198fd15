import { describe, expect, it } from 'vitest';
import { addDays, dueDates, dueInstant } from '../../../domain/schedule.js';
import { cliSandbox } from '../../../../test/support/cli.js';
import { subscriptionHelpers } from '../../../../test/support/subscriptions.js';

// Every row of spec section 3's subscription transition table and its outcome mapping,
// through the CLI (in-process) and the test clock. One sandbox, one clock that only moves forward: each
// test anchors its subscriptions after the clock's current date.

const GOOD = '4242424242424242';
const DECLINED = '4000000000000002';

const sb = cliSandbox({ clock: '2030-01-15T00:00:00Z' });

const { ok, card, customerWithCard, today, create } = subscriptionHelpers(sb);

const advance = (to: string) => sb.json(['sandbox', 'clock', 'advance', '--to', to]);
const get = (id: string) => sb.json(['subscriptions', 'get', id]);
const intents = async (id: string): Promise<Array<{ id: string; status: string; created: string; subscription_id: string }>> =>
  (await ok('GET', `/v1/payment-intents?subscription_id=${id}&limit=100`)).data.reverse();

describe('pay subscriptions: the transition table', () => {
  it('(none) → pending on create; pending → active when the anchor payment succeeds', async () => {
    const sub = await create(5, ['--metadata', 'order=7']);
    expect(sub).toMatchObject({ status: 'pending', price: 2500, currency: 'usd', interval_unit: 'month', metadata: { order: '7' } });
    expect(sub.next_payment_at).toBe(dueInstant(sub.billing_cycle_anchor));

    const clock = await advance(sub.billing_cycle_anchor);
    expect(clock).toEqual({ object: 'test_clock', now: dueInstant(sub.billing_cycle_anchor) });
    const active = await get(sub.id);
    expect(active).toMatchObject({ status: 'active', next_payment_at: dueInstant(dueDates(sub.billing_cycle_anchor, 'month', 1, 2)[1]!) });
    // Outcome mapping: succeeded → active.
    expect(await intents(sub.id)).toEqual([expect.objectContaining({ status: 'succeeded', subscription_id: sub.id, created: dueInstant(sub.billing_cycle_anchor) })]);
  });

  it('an anchor of today takes the first payment at create; a declined one is a warning naming the retry, even with --json', async () => {
    const flags = async (number: string) => {
      const { customer, pm } = await customerWithCard(number);
      return ['subscriptions', 'create', '--customer', customer, '--payment-method', pm, '--price', '2500', '--billing-cycle-anchor', await today(), '--interval-unit', 'month', '--interval-count', '1', '--json'];
    };
    const paid = await sb.pay(await flags(GOOD));
    expect([paid.code, paid.stderr]).toEqual([0, '']);
    expect(JSON.parse(paid.stdout)).toMatchObject({ status: 'active', latest_payment_intent_id: expect.stringMatching(/^pi_/) });
    const declined = await sb.pay(await flags(DECLINED));
    expect(declined.code, declined.stderr).toBe(0);
    const sub = JSON.parse(declined.stdout);
    expect(sub).toMatchObject({ status: 'past_due', next_payment_at: null });
    expect(declined.stderr).toBe(`! Its first payment (${sub.latest_payment_intent_id}) failed: update its payment method, then pay subscriptions retry ${sub.id}.`);
  });

  it('active → active on each successful payment; active → past_due when one fails, with no further attempts', async () => {
    const sub = await create(1);
    const dates = dueDates(sub.billing_cycle_anchor, 'month', 1, 4);
    await advance(dates[1]!);
    expect(await get(sub.id)).toMatchObject({ status: 'active', next_payment_at: dueInstant(dates[2]!) });

    const declining = await card(sub.customer_id, DECLINED);
    expect(await sb.json(['subscriptions', 'update', sub.id, '--payment-method', declining])).toMatchObject({ payment_method_id: declining, status: 'active' });
    await advance(addDays(dates[3]!, 40));
    // Outcome mapping: requires_payment_method → past_due.
    expect(await get(sub.id)).toMatchObject({ status: 'past_due', next_payment_at: null });
    expect((await intents(sub.id)).map((pi) => [pi.status, pi.created])).toEqual([
      ['succeeded', dueInstant(dates[0]!)],
      ['succeeded', dueInstant(dates[1]!)],
      ['requires_payment_method', dueInstant(dates[2]!)],
    ]);
  });

  it('past_due → past_due when a retry fails (exit 6); → active when it succeeds after the card is updated', async () => {
    const sub = await create(1, [], DECLINED);
    await advance(sub.billing_cycle_anchor);
    expect((await get(sub.id)).status).toBe('past_due');

    const failed = await sb.pay(['subscriptions', 'retry', sub.id]);
    expect(failed.code).toBe(6);
    expect(failed.stderr).toContain('card_declined');
    expect(failed.stderr).toMatch(/payment intent: pi_/);
    expect((await get(sub.id)).status).toBe('past_due');

    await sb.json(['subscriptions', 'update', sub.id, '--payment-method', await card(sub.customer_id)]);
    const retried = await sb.json(['subscriptions', 'retry', sub.id]);
    expect(retried).toMatchObject({ status: 'active' });
    expect(retried.next_payment_at).toBe(dueInstant(dueDates(sub.billing_cycle_anchor, 'month', 1, 2)[1]!));
    expect((await intents(sub.id)).map((pi) => pi.status)).toEqual(['requires_payment_method', 'requires_payment_method', 'succeeded']);
  });

  it('a retry after the failed payment was paid directly exits 5 and charges nothing: the period is paid', async () => {
    const sub = await create(1, [], DECLINED);
    await advance(sub.billing_cycle_anchor);
    const [failed] = await intents(sub.id);
    const good = await card(sub.customer_id);
    expect(await sb.json(['intents', 'confirm', failed!.id, '--payment-method', good])).toMatchObject({ status: 'succeeded' });
    await sb.json(['subscriptions', 'update', sub.id, '--payment-method', good]);

    const retried = await sb.pay(['subscriptions', 'retry', sub.id]);
    expect(retried.code).toBe(5);
    expect(retried.stderr).toContain('has been paid directly since');
    expect(retried.stdout).toBe('');
    expect((await intents(sub.id)).map((pi) => pi.status)).toEqual(['succeeded']);
    expect((await get(sub.id)).status).toBe('past_due');
  });

  it('active → paused: payments stop; paused → active on resume, the dates missed never charged', async () => {
    const sub = await create(1, ['--interval-unit', 'week']);
    const dates = dueDates(sub.billing_cycle_anchor, 'week', 1, 6);
    await advance(dates[0]!);
    const paused = await sb.pay(['subscriptions', 'pause', sub.id]);
    expect(paused.code).toBe(0);
    expect((await get(sub.id)).status).toBe('paused');
    await advance(addDays(dates[2]!, 1));
    expect(await sb.json(['subscriptions', 'resume', sub.id])).toMatchObject({ status: 'active', next_payment_at: dueInstant(dates[3]!) });
    await advance(dates[4]!);
    expect((await intents(sub.id)).map((pi) => pi.created)).toEqual([dates[0], dates[3], dates[4]].map((d) => dueInstant(d!)));

    const again = await sb.pay(['subscriptions', 'resume', sub.id]);
    expect(again.code).toBe(5);
    expect(again.stderr).toContain('active');
  });

  it('active → canceled when cancel_at is reached, before the payment due that day', async () => {
    const sub = await create(1);
    const dates = dueDates(sub.billing_cycle_anchor, 'month', 1, 4);
    await advance(dates[0]!);
    await sb.json(['subscriptions', 'update', sub.id, '--cancel-at', dates[2]!]);
    await advance(addDays(dates[3]!, 1));
    expect(await get(sub.id)).toMatchObject({ status: 'canceled', canceled_at: dueInstant(dates[2]!), next_payment_at: null });
    expect((await intents(sub.id)).map((pi) => pi.created)).toEqual([dates[0], dates[1]].map((d) => dueInstant(d!)));
  });

  it('any status → canceled on cancel, for good; canceling again exits 5 (409 invalid_state) and changes nothing', async () => {
    const pending = await create(3);
    const active = await create(1);
    const pastDue = await create(1, [], DECLINED);
    const paused = await create(1);
    await advance(active.billing_cycle_anchor);
    await sb.json(['subscriptions', 'pause', paused.id]);
    const before = [];
    const unconfirmed = await sb.pay(['subscriptions', 'cancel', pending.id]);
    expect({ code: unconfirmed.code, stderr: unconfirmed.stderr }).toEqual({ code: 2, stderr: expect.stringMatching(/^✗ Missing --yes: canceling a subscription/) });
    for (const sub of [pending, active, pastDue, paused]) {
      before.push((await get(sub.id)).status);
      expect(await sb.json(['subscriptions', 'cancel', sub.id, '--yes'])).toMatchObject({ status: 'canceled', next_payment_at: null });
    }
    expect(before).toEqual(['pending', 'active', 'past_due', 'paused']);
    const canceled = await get(active.id);
    const again = await sb.pay(['subscriptions', 'cancel', active.id, '--yes']);
    expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 5, stderr: expect.stringContaining('invalid_state') });
    expect(await get(active.id)).toEqual(canceled);
    await advance(addDays(pending.billing_cycle_anchor, 70));
    expect(await intents(pending.id)).toEqual([]);
    expect(await intents(active.id)).toHaveLength(1);
  });

  it('a one-time future payment (cancel_at = anchor + 1 day) charges once and ends canceled', async () => {
    const { customer, pm } = await customerWithCard();
    const anchor = addDays(await today(), 10);
    const sub = await sb.json(['subscriptions', 'create', '--customer', customer, '--payment-method', pm, '--price', '9900', '--billing-cycle-anchor', anchor, '--interval-unit', 'month', '--interval-count', '1', '--cancel-at', addDays(anchor, 1)]);
    await advance(addDays(anchor, 400));
    expect((await intents(sub.id)).map((pi) => [pi.status, pi.created])).toEqual([['succeeded', dueInstant(anchor)]]);
    expect((await get(sub.id)).status).toBe('canceled');
  });
});

describe('pay subscriptions: events', () => {
  it('customer, card, subscription, then the anchor: spec section 6 rule 2\'s events, intent events with subscription_id', async () => {
    const customer = (await sb.json(['customers', 'create', '--email', 'events@example.com'])).id;
    const pm = (await sb.json(['payment-methods', 'create', '--card', GOOD, '--exp', '12/40', '--cvc', '123', '--customer', customer])).id;
    const anchor = addDays(await today(), 2);
    const sub = await sb.json(['subscriptions', 'create', '--customer', customer, '--payment-method', pm, '--price', '500', '--billing-cycle-anchor', anchor, '--interval-unit', 'week', '--interval-count', '1']);
    await advance(anchor);

    const events: Array<{ type: string; data: { object: { id: string; customer_id?: string; next_payment_at?: string }; subscription_id?: string; payment_intent_id?: string } }> =
      (await ok('GET', '/v1/events?limit=100')).data.reverse();
    const ours = events.filter((e) => e.data.object.id === customer || e.data.object.id === pm || e.data.object.id === sub.id || e.data.subscription_id === sub.id);
    expect(ours.map((e) => e.type).sort()).toEqual([
      'charge.succeeded',
      'customer.created',
      'payment_intent.created',
      'payment_intent.succeeded',
      'payment_method.attached',
      'subscription.created',
      'subscription.updated',
    ]);
    const succeeded = ours.find((e) => e.type === 'payment_intent.succeeded')!;
    expect(succeeded.data.subscription_id).toBe(sub.id);
    expect(succeeded.data.payment_intent_id).toBe(succeeded.data.object.id);
    expect(ours.find((e) => e.type === 'subscription.updated')!.data.object).toMatchObject({ status: 'active', next_payment_at: dueInstant(addDays(anchor, 7)) });
  });
});

describe('pay subscriptions: rules and errors', () => {
  it('refuses to change the customer or the billing cycle, naming the field', async () => {
    const sub = await create(2);
    const cli = await sb.pay(['subscriptions', 'update', sub.id, '--billing-cycle-anchor', '2040-01-01']);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain('--billing-cycle-anchor');
    expect(cli.stderr).toContain('immutable after creation');
    const api = await sb.http('POST', `/v1/subscriptions/${sub.id}`, { interval_count: 2 });
    expect(api.status).toBe(400);
    expect(api.body.error).toMatchObject({ code: 'parameter_immutable', param: 'interval_count' });
    expect(await get(sub.id)).toEqual(sub);
  });

  it('update merges metadata (key= removes one) and --no-cancel-at clears cancel_at', async () => {
    const sub = await create(2, ['--metadata', 'a=1', '--metadata', 'b=2', '--cancel-at', '2045-01-01', '--platform-fee-amount', '100']);
    const updated = await sb.json(['subscriptions', 'update', sub.id, '--metadata', 'b=', '--metadata', 'c=3', '--no-cancel-at', '--no-platform-fee-amount']);
    expect(updated).toMatchObject({ metadata: { a: '1', c: '3' }, cancel_at: null, platform_fee_amount: null });
    expect((await sb.pay(['subscriptions', 'update', sub.id])).code).toBe(2);
    // A value and its --no-… together contradict each other, in either order: nothing changes.
    for (const args of [['--cancel-at', '2046-01-01', '--no-cancel-at'], ['--no-platform-fee-amount', '--platform-fee-amount', '5']]) {
      const both = await sb.pay(['subscriptions', 'update', sub.id, ...args]);
      expect([both.code, both.stderr], args.join(' ')).toEqual([2, expect.stringMatching(/^✗ --(cancel-at|platform-fee-amount) and --no-\1 cannot be used together: choose one\.$/)]);
    }
    expect(await get(sub.id)).toEqual(updated);
  });

  it('checks flags before any request and names what is missing without a TTY', async () => {
    const before = (await ok('GET', '/v1/subscriptions?limit=100')).data.length;
    const missing = await sb.pay(['subscriptions', 'create', '--price', '100', '--billing-cycle-anchor', '2040-01-01', '--interval-unit', 'week', '--interval-count', '1', '--payment-method', 'pm_x']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--customer');
    const bad = await sb.pay(['subscriptions', 'create', '--customer', 'cus_x', '--payment-method', 'pm_x', '--price', '100', '--billing-cycle-anchor', '2040-02-30', '--interval-unit', 'week', '--interval-count', '1']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--billing-cycle-anchor');
    // A date far beyond any schedule is a typo: refused by the domain rule the service shares.
    const far = await sb.pay(['subscriptions', 'create', '--customer', 'cus_x', '--payment-method', 'pm_x', '--price', '100', '--billing-cycle-anchor', '9999-12-31', '--interval-unit', 'week', '--interval-count', '1']);
    expect({ code: far.code, stderr: far.stderr }).toEqual({ code: 2, stderr: '✗ Invalid --billing-cycle-anchor: must be a date from 1970-01-01 to 2100-12-31.' });
    const service = await sb.http('POST', '/v1/subscriptions', { customer_id: 'cus_x', payment_method_id: 'pm_x', price: 100, billing_cycle_anchor: '9999-12-31', interval_unit: 'week', interval_count: 1 });
    expect({ status: service.status, param: service.body.error.param }).toEqual({ status: 400, param: 'billing_cycle_anchor' });
    const unit = await sb.pay(['subscriptions', 'create', '--customer', 'cus_x', '--payment-method', 'pm_x', '--price', '100', '--billing-cycle-anchor', '2040-02-01', '--interval-unit', 'day', '--interval-count', '1']);
    expect(unit.code).toBe(2);
    expect(unit.stderr).toContain('--interval-unit');
    expect((await ok('GET', '/v1/subscriptions?limit=100')).data.length).toBe(before);
  });

  it('an anchor before the service\'s today is a usage error naming the flag without a TTY, as at one (exit 2), and creates nothing', async () => {
    const { customer, pm } = await customerWithCard();
    const day = await today();
    const res = await sb.pay(['subscriptions', 'create', '--customer', customer, '--payment-method', pm, '--price', '100', '--billing-cycle-anchor', addDays(day, -1), '--interval-unit', 'week', '--interval-count', '1']);
    expect({ code: res.code, stderr: res.stderr }).toEqual({ code: 2, stderr: `✗ Invalid --billing-cycle-anchor: must be today (${day}) or later.` });
    expect((await ok('GET', `/v1/subscriptions?customer_id=${customer}`)).data).toEqual([]);
  });

  it('wants a card attached to the customer (spec section 4 rule 4)', async () => {
    const { customer } = await customerWithCard();
    const other = await customerWithCard();
    const res = await sb.pay(['subscriptions', 'create', '--customer', customer, '--payment-method', other.pm, '--price', '100', '--billing-cycle-anchor', addDays(await today(), 1), '--interval-unit', 'week', '--interval-count', '1']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('param: payment_method_id');
    expect(res.stderr).toContain(`is attached to customer ${other.customer}, and a payment method belongs to one customer`);
  });

  it('pause only from active: exit 5 naming the status', async () => {
    const sub = await create(2);
    const res = await sb.pay(['subscriptions', 'pause', sub.id]);
    expect(res.code).toBe(5);
    expect(res.stderr).toContain('pending');
  });

  it('lists by status and customer', async () => {
    const sub = await create(2);
    const mine = await sb.json(['subscriptions', 'list', '--customer', sub.customer_id]);
    expect(mine.data.map((s: { id: string }) => s.id)).toEqual([sub.id]);
    const pending = await sb.json(['subscriptions', 'list', '--status', 'pending', '--limit', '100']);
    expect(pending.data.every((s: { status: string }) => s.status === 'pending')).toBe(true);
    expect(pending.data.map((s: { id: string }) => s.id)).toContain(sub.id);
    const piped = await sb.pay(['subscriptions', 'list', '--customer', sub.customer_id]);
    expect(piped.stdout).toBe(`${sub.id}\tpending\t${sub.customer_id}\t$25.00\tevery month\t${sub.next_payment_at}`);
    expect((await sb.pay(['subscriptions', 'list', '--status', 'late'])).code).toBe(2);
  });

  it('pay intents list --subscription shows every payment attempt (spec section 4), a page only with --limit', async () => {
    const sub = await create(1, ['--interval-unit', 'week']);
    await advance(addDays(sub.billing_cycle_anchor, 7 * 11));
    const all = await sb.json(['intents', 'list', '--subscription', sub.id]);
    expect([all.data.length, all.has_more]).toEqual([12, false]);
    expect((await sb.pay(['intents', 'list', '--subscription', sub.id])).stdout.split('\n')).toHaveLength(12);
    const page = await sb.json(['intents', 'list', '--subscription', sub.id, '--limit', '10']);
    expect([page.data.length, page.has_more]).toEqual([10, true]);
    // Other lists keep the service's page of 10.
    expect((await sb.json(['intents', 'list'])).data).toHaveLength(10);
  });

  it('schedule prints the upcoming due dates, from the anchor, ending before cancel_at', async () => {
    const { customer, pm } = await customerWithCard();
    const year = Number((await today()).slice(0, 4)) + 1;
    const sub = await sb.json(['subscriptions', 'create', '--customer', customer, '--payment-method', pm, '--price', '100', '--billing-cycle-anchor', `${year}-01-31`, '--interval-unit', 'month', '--interval-count', '1', '--cancel-at', `${year}-05-31`]);
    const schedule = await sb.json(['subscriptions', 'schedule', sub.id, '--count', '6']);
    expect(schedule.data).toEqual([
      { payment: 1, date: `${year}-01-31` },
      { payment: 2, date: `${year}-02-${year % 4 === 0 ? 29 : 28}` },
      { payment: 3, date: `${year}-03-31` },
      { payment: 4, date: `${year}-04-30` },
    ]);
    // A list like any other: has_more says whether dates follow the ones printed.
    expect([schedule.has_more, (await sb.json(['subscriptions', 'schedule', sub.id, '--count', '2'])).has_more]).toEqual([false, true]);
    const piped = await sb.pay(['subscriptions', 'schedule', sub.id, '--count', '2']);
    expect(piped.stdout).toBe(`1\t${year}-01-31\n2\t${year}-02-${year % 4 === 0 ? 29 : 28}`);
  });
});

describe('pay sandbox clock', () => {
  it('shows the clock, advances by days, and never goes backwards', async () => {
    const shown = await sb.json(['sandbox', 'clock']);
    expect(shown.object).toBe('test_clock');
    expect(await sb.json(['sandbox', 'clock', 'show'])).toEqual(shown);
    const moved = await sb.json(['sandbox', 'clock', 'advance', '--days', '2']);
    expect(Date.parse(moved.now) - Date.parse(shown.now)).toBe(2 * 86_400_000);
    const back = await sb.pay(['sandbox', 'clock', 'advance', '--to', '2030-01-01']);
    expect(back.code).toBe(1);
    expect(back.stderr).toContain('cannot go backwards');
    expect(await sb.json(['sandbox', 'clock'])).toEqual(moved);
    const both = await sb.pay(['sandbox', 'clock', 'advance', '--to', '2040-01-01', '--days', '1']);
    expect(both.code).toBe(2);
  });
});

