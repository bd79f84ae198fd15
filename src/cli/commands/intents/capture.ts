import type { Command } from 'commander';
import { type PaymentIntent, PaymentIntentCapture } from '../../../domain/payment-intents.js';
import type { Factory } from '../../factory.js';
import { checkedBody, intArg, withExamples } from '../../flags.js';
import { showIntent } from './view.js';

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('capture')
    .description('Capture an authorized payment intent (capture_method manual), once, up to the authorized amount')
    .argument('<id>', 'Payment intent id (pi_…)')
    .option('--amount-to-capture <n>', 'Amount to capture (default: all that was authorized)', intArg)
    .action(async (id: string, flags: { amountToCapture?: number }) => run({ id, amountToCapture: flags.amountToCapture }, f));
  withExamples(command, 'pay intents capture pi_123', 'pay intents capture pi_123 --amount-to-capture 800');
}

export async function run(options: { id: string; amountToCapture?: number | undefined }, f: Factory): Promise<void> {
  const body = checkedBody(PaymentIntentCapture, { amount_to_capture: options.amountToCapture });
  const client = await f.client();
  showIntent(f, await client.call<PaymentIntent>('payment_intents.capture', { params: { id: options.id }, body }), 'Captured');
}
