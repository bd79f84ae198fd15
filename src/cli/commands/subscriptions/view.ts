import { z } from 'zod';
import { IdOf } from '../../../domain/common.js';
import type { PastDueSubscription } from '../../../operator/past-due.js';
import type { Subscription } from '../../../domain/subscriptions.js';
import { fieldsOf } from '../../command.js';
import type { Factory } from '../../factory.js';
import { flagOf } from '../../flags.js';
import type { Column } from '../../io/io.js';

/** Flags name references without `_id`: customer_id → --customer. */
export const subscriptionFlag = (param: string) => flagOf(param.replace(/_id$/, ''));

export const intervalText = (s: Pick<Subscription, 'interval_unit' | 'interval_count'>) =>
  s.interval_count === 1 ? `every ${s.interval_unit}` : `every ${s.interval_count} ${s.interval_unit}s`;

/** How subscriptions are shown in lists. */
export const subscriptionColumns: Column<Subscription>[] = [
  { header: 'ID', value: (s) => s.id },
  { header: 'STATUS', value: (s) => s.status },
  { header: 'CUSTOMER', value: (s) => s.customer_id },
  { header: 'PRICE', value: (s) => `${s.price} ${s.currency}` },
  { header: 'INTERVAL', value: intervalText },
  { header: 'NEXT PAYMENT', value: (s) => s.next_payment_at },
];

export const subscriptionFields = fieldsOf<Subscription>()(
  'id', 'object', 'created', 'livemode', 'customer_id', 'payment_method_id', 'price', 'currency', 'billing_cycle_anchor', 'interval_unit', 'interval_count',
  'platform_fee_amount', 'metadata', 'cancel_at', 'status', 'next_payment_at', 'latest_payment_intent_id', 'canceled_at',
);

/** A subscription after a state change (pause, resume, retry): a word at a TTY, then the object. */
export const showChanged = (done: string) => (f: Factory, subscription: Subscription) => {
  if (f.io.human) f.io.success(`${done} subscription ${subscription.id}: ${subscription.status}${subscription.next_payment_at ? `, next payment ${subscription.next_payment_at}` : ''}`);
  f.io.printObject(subscription);
};

/** How past_due subscriptions (support's list, a batch before it runs) are shown. */
export const pastDueColumns: Column<PastDueSubscription>[] = [
  { header: 'SUBSCRIPTION', value: (p) => p.subscription_id },
  { header: 'CUSTOMER', value: (p) => p.customer_id },
  { header: 'AMOUNT', value: (p) => `${p.amount} ${p.currency}` },
  { header: 'STATUS', value: (p) => p.status },
  { header: 'PAST DUE SINCE', value: (p) => p.past_due_since },
  { header: 'LAST FAILURE', value: (p) => p.failure_code },
];

/** Sums per currency, e.g. `4500 usd + 1200 eur`. */
export function totalText(rows: ReadonlyArray<{ amount: number; currency: string }>): string {
  const sums = new Map<string, number>();
  for (const row of rows) sums.set(row.currency, (sums.get(row.currency) ?? 0) + row.amount);
  return [...sums].map(([currency, sum]) => `${sum} ${currency}`).join(' + ') || '0';
}

/** Which subscriptions support staff pick: one customer's, or exactly these. */
export const PastDueSelection = z.strictObject({
  customer_id: IdOf('cus').optional(),
  only: z.array(IdOf('sub')).min(1, { error: 'name at least one subscription' }).optional(),
});
export const selectionFlag = (param: string) => (param.startsWith('only') ? '--only' : subscriptionFlag(param));
