import type { EndpointName } from '../../../domain/endpoints.js';
import type { Subscription } from '../../../domain/subscriptions.js';
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

/** The state changes without a body (pause, resume, retry): call, report, print. */
export async function changeState(f: Factory, endpoint: EndpointName, id: string, done: string): Promise<Subscription> {
  const client = await f.client();
  const subscription = await client.call<Subscription>(endpoint, { params: { id } });
  if (f.io.human) f.io.success(`${done} subscription ${subscription.id}: ${subscription.status}${subscription.next_payment_at ? `, next payment ${subscription.next_payment_at}` : ''}`);
  f.io.printObject(subscription);
  return subscription;
}
