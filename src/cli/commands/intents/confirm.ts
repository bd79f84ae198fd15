import type { Command } from 'commander';
import { type PaymentIntent, PaymentIntentConfirm } from '../../../domain/payment-intents.js';
import type { Factory } from '../../factory.js';
import { checkedBody, withExamples } from '../../flags.js';
import { showIntent } from './view.js';

export interface ConfirmOptions {
  id: string;
  paymentMethod?: string | undefined;
}

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('confirm')
    .description('Confirm a payment intent: a card is charged at once (exit 6 when declined); a card_present intent goes to its reader')
    .argument('<id>', 'Payment intent id (pi_…)')
    .option('--payment-method <pm_id>', 'Payment method to pay with (required unless the intent has one)')
    .action(async (id: string, flags: { paymentMethod?: string }) => {
      await run({ id, paymentMethod: flags.paymentMethod }, f);
    });
  withExamples(command, 'pay intents confirm pi_123 --payment-method pm_123', 'pay intents confirm pi_123 --json');
}

export async function run(options: ConfirmOptions, f: Factory): Promise<PaymentIntent> {
  const body = checkedBody(PaymentIntentConfirm, { payment_method_id: options.paymentMethod });
  const client = await f.client();
  const intent = await client.call<PaymentIntent>('payment_intents.confirm', { params: { id: options.id }, body });
  showIntent(f, intent, 'Confirmed');
  return intent;
}
