import { type Command, Option } from 'commander';
import { CANCELLATION_REASONS, type PaymentIntent, PaymentIntentCancel } from '../../../domain/payment-intents.js';
import type { Factory } from '../../factory.js';
import { checkedBody, withExamples } from '../../flags.js';
import { showIntent } from './view.js';

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('cancel')
    .description('Cancel a payment intent before it is processing or succeeded (held funds are released); irreversible')
    .argument('<id>', 'Payment intent id (pi_…)')
    .addOption(new Option('--cancellation-reason <reason>', 'Why').choices(CANCELLATION_REASONS))
    .action(async (id: string, flags: { cancellationReason?: string }) => run({ id, cancellationReason: flags.cancellationReason }, f));
  withExamples(command, 'pay intents cancel pi_123', 'pay intents cancel pi_123 --cancellation-reason requested_by_customer');
}

export async function run(options: { id: string; cancellationReason?: string | undefined }, f: Factory): Promise<void> {
  const body = checkedBody(PaymentIntentCancel, { cancellation_reason: options.cancellationReason });
  const client = await f.client();
  showIntent(f, await client.call<PaymentIntent>('payment_intents.cancel', { params: { id: options.id }, body }), 'Canceled');
}
