import { formatAmount } from '../../../domain/money.js';
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
  { header: 'PRICE', value: (s) => formatAmount(s.price, s.currency) },
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
