import type { Command } from 'commander';
import { type PaymentIntent, PaymentIntentUpdate } from '../../../domain/payment-intents.js';
import type { Factory } from '../../factory.js';
import { checkedBody, intArg, keyValueArg, withExamples } from '../../flags.js';
import { showIntent } from './view.js';

export interface UpdateOptions {
  id: string;
  body: PaymentIntentUpdate;
}

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('update')
    .description('Change a payment intent\'s amount (or description, metadata); only before it is confirmed')
    .argument('<id>', 'Payment intent id (pi_…)')
    .option('--amount <n>', 'New amount in the currency\'s minor unit', intArg)
    .option('--description <text>', 'Description')
    .option('--metadata <key=value>', 'Metadata pair to set (repeatable)', keyValueArg)
    .action(async (id: string, flags: { amount?: number; description?: string; metadata?: Record<string, string> }) => {
      const body = checkedBody(PaymentIntentUpdate, { amount: flags.amount, description: flags.description, metadata: flags.metadata });
      await run({ id, body }, f);
    });
  withExamples(command, 'pay intents update pi_123 --amount 2499');
}

export async function run(options: UpdateOptions, f: Factory): Promise<void> {
  const client = await f.client();
  showIntent(f, await client.call<PaymentIntent>('payment_intents.update', { params: { id: options.id }, body: options.body }), 'Updated');
}
