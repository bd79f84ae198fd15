import { type Command, Option } from 'commander';
import { type Subscription, SubscriptionUpdate } from '../../../domain/subscriptions.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { checkedBody, intArg, keyValueArg, withExamples } from '../../flags.js';
import { subscriptionFlag } from './view.js';

export interface UpdateOptions {
  id: string;
  body: SubscriptionUpdate;
}

interface UpdateFlags {
  paymentMethod?: string;
  metadata?: Record<string, string>;
  platformFeeAmount?: number | false;
  cancelAt?: string | false;
  customer?: string;
  billingCycleAnchor?: string;
  intervalUnit?: string;
  intervalCount?: string;
}

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('update')
    .description('Change a subscription\'s payment method, metadata, platform fee or cancel_at (customer and billing cycle are fixed)')
    .argument('<id>', 'Subscription id (sub_…)')
    .option('--payment-method <id>', 'Payment method attached to the subscription\'s customer (pm_…)')
    .option('--metadata <key=value>', 'Metadata pair, merged into the existing ones; key= removes a key (repeatable)', keyValueArg)
    .option('--platform-fee-amount <amount>', 'Platform fee in minor units', intArg)
    .option('--no-platform-fee-amount', 'Remove the platform fee')
    .option('--cancel-at <date>', 'Cancel on this date (YYYY-MM-DD)')
    .option('--no-cancel-at', 'Remove cancel_at')
    // Accepted only to answer with the rule: these are fixed at creation.
    .addOption(new Option('--customer <id>').hideHelp())
    .addOption(new Option('--billing-cycle-anchor <date>').hideHelp())
    .addOption(new Option('--interval-unit <unit>').hideHelp())
    .addOption(new Option('--interval-count <n>').hideHelp())
    .action(async (id: string, flags: UpdateFlags) => {
      const body = checkedBody(
        SubscriptionUpdate,
        {
          payment_method_id: flags.paymentMethod,
          metadata: flags.metadata,
          platform_fee_amount: flags.platformFeeAmount === false ? null : flags.platformFeeAmount,
          cancel_at: flags.cancelAt === false ? null : flags.cancelAt,
          customer_id: flags.customer,
          billing_cycle_anchor: flags.billingCycleAnchor,
          interval_unit: flags.intervalUnit,
          interval_count: flags.intervalCount,
        },
        subscriptionFlag,
      );
      if (Object.keys(body).length === 0) throw new UsageError('Nothing to update: give --payment-method, --metadata, --platform-fee-amount or --cancel-at.');
      await run({ id, body }, f);
    });
  withExamples(
    command,
    'pay subscriptions update sub_123 --payment-method pm_456',
    'pay subscriptions update sub_123 --cancel-at 2031-01-01 --metadata plan=gold',
    'pay subscriptions update sub_123 --no-cancel-at',
  );
}

export async function run(options: UpdateOptions, f: Factory): Promise<Subscription> {
  const client = await f.client();
  const subscription = await client.call<Subscription>('subscriptions.update', { params: { id: options.id }, body: options.body });
  if (f.io.human) f.io.success(`Updated subscription ${subscription.id}`);
  f.io.printObject(subscription);
  return subscription;
}
