import { dateOf, firstIndexOnOrAfter } from '../../../domain/schedule.js';
import { scheduledDates, type Subscription } from '../../../domain/subscriptions.js';
import type { TestClockObject } from '../../../domain/test-helpers.js';
import { arg, defineCommand, flag } from '../../command.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';

export interface ScheduleOptions {
  id: string;
  count: number;
}

export const schedule = defineCommand({
  name: 'schedule',
  description: 'Print the upcoming due dates of a subscription, computed from its anchor (none once canceled)',
  args: { id: arg.id('subscription', 'Subscription id (sub_…)') },
  flags: { count: flag.int('--count <n>', 'How many dates, 1 to 1000', { default: 5 }) },
  examples: ['pay subscriptions schedule sub_123', 'pay subscriptions schedule sub_123 --count 12 --json'],
  fields: ['payment', 'date'],
  run: (options, f) => run(options, f),
});

export async function run(options: ScheduleOptions, f: Factory): Promise<string[]> {
  if (options.count < 1 || options.count > 1000) throw new UsageError('Invalid --count: must be from 1 to 1000.');
  const client = await f.client();
  const s = await client.call<Subscription>('subscriptions.get', { params: { id: options.id } });
  const from = await firstUpcoming(s, f);
  // One date past those printed tells, as any list's has_more, whether more follow (none after a cancel_at or a cancel).
  const upcoming = from === undefined ? [] : scheduledDates(s, options.count + 1, from);
  const dates = upcoming.slice(0, options.count);
  if (f.io.human && s.next_payment_at === null && s.status !== 'canceled') f.io.warn(whyNoPayment(s));
  const rows = dates.map((date, i) => ({ payment: from! + i + 1, date }));
  f.io.printList(rows, [
    { header: 'PAYMENT', value: (r) => r.payment },
    { header: 'DUE DATE', value: (r) => r.date },
  ], { object: 'list', subscription_id: s.id, status: s.status, data: rows, has_more: upcoming.length > options.count });
  return dates;
}

/** Why a running subscription has no next payment: it waits for a resume or a retry, or (active) its cancel_at comes before its next due date. */
function whyNoPayment(s: Subscription): string {
  if (s.status === 'active') return `${s.id} is active and cancels on ${s.cancel_at}: no payment is due before then.`;
  return `${s.id} is ${s.status}: no payment is attempted until it is ${s.status === 'paused' ? 'resumed' : 'retried'}.`;
}

/** Index of the next due date: next_payment_at's, else (paused, past_due) the first after the clock's today. */
async function firstUpcoming(s: Subscription, f: Factory): Promise<number | undefined> {
  if (s.status === 'canceled') return undefined;
  let from = s.next_payment_at === null ? undefined : dateOf(s.next_payment_at);
  if (from === undefined) {
    const profile = await f.profile();
    const client = await f.client();
    // Only the sandbox has a test clock; a real service runs on real time.
    const now = profile.sandbox ? (await client.call<TestClockObject>('test_helpers.clock')).now : new Date().toISOString();
    from = dateOf(new Date(Date.parse(now) + 86_400_000).toISOString());
  }
  return firstIndexOnOrAfter(s.billing_cycle_anchor, s.interval_unit, s.interval_count, from);
}
