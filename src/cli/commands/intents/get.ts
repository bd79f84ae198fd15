import type { Command } from 'commander';
import type { PaymentIntent } from '../../../domain/payment-intents.js';
import type { Factory } from '../../factory.js';
import { withExamples } from '../../flags.js';

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('get')
    .description('Show a payment intent')
    .argument('<id>', 'Payment intent id (pi_…)')
    .action(async (id: string) => run({ id }, f));
  withExamples(command, 'pay intents get pi_123', 'pay intents get pi_123 --json | jq .status');
}

export async function run(options: { id: string }, f: Factory): Promise<void> {
  const client = await f.client();
  f.io.printObject(await client.call<PaymentIntent>('payment_intents.get', { params: { id: options.id } }));
}
