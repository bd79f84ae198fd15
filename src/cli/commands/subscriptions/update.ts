import { type Subscription, SubscriptionUpdate } from '../../../domain/subscriptions.js';
import { arg, bodyFrom, defineCommand, flag } from '../../command.js';
import { UsageError } from '../../errors.js';
import { subscriptionFields } from './view.js';

const flags = {
  paymentMethod: flag.string('--payment-method <id>', 'Payment method attached to the subscription\'s customer (pm_…)', { field: 'payment_method_id' }),
  metadata: flag.keyValue('--metadata <key=value>', 'Metadata pair, merged into the existing ones; key= removes a key (repeatable)', { field: 'metadata' }),
  platformFeeAmount: flag.clearable(
    flag.int('--platform-fee-amount <amount>', 'Platform fee in minor units', { field: 'platform_fee_amount' }),
    '--no-platform-fee-amount',
    'Remove the platform fee',
  ),
  cancelAt: flag.clearable(flag.string('--cancel-at <date>', 'Cancel on this date (YYYY-MM-DD)', { field: 'cancel_at' }), '--no-cancel-at', 'Remove cancel_at'),
  // Accepted only to answer with the rule: these are fixed at creation.
  customer: flag.string('--customer <id>', '', { field: 'customer_id', hidden: true }),
  billingCycleAnchor: flag.string('--billing-cycle-anchor <date>', '', { field: 'billing_cycle_anchor', hidden: true }),
  intervalUnit: flag.string('--interval-unit <unit>', '', { field: 'interval_unit', hidden: true }),
  intervalCount: flag.string('--interval-count <n>', '', { field: 'interval_count', hidden: true }),
};

export const update = defineCommand({
  name: 'update',
  description: 'Change a subscription\'s payment method, metadata, platform fee or cancel_at (customer and billing cycle are fixed)',
  args: { id: arg.id('subscription', 'Subscription id (sub_…)') },
  flags,
  examples: [
    'pay subscriptions update sub_123 --payment-method pm_456',
    'pay subscriptions update sub_123 --cancel-at 2031-01-01 --metadata plan=gold',
    'pay subscriptions update sub_123 --no-cancel-at',
  ],
  fields: subscriptionFields,
  async run(options, f) {
    const body: SubscriptionUpdate = bodyFrom(SubscriptionUpdate, flags, options);
    if (Object.keys(body).length === 0) throw new UsageError('Nothing to update: give --payment-method, --metadata, --platform-fee-amount or --cancel-at.');
    const client = await f.client();
    const subscription = await client.call<Subscription>('subscriptions.update', { params: { id: options.id }, body });
    if (f.io.human) f.io.success(`Updated subscription ${subscription.id}`);
    f.io.printObject(subscription);
    return subscription;
  },
});
