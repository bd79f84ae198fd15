import type { Command } from 'commander';
import type { PaymentMethod } from '../../../domain/payment-methods.js';
import type { Factory } from '../../factory.js';
import { withExamples } from '../../flags.js';

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('get')
    .description('Show a payment method (brand, last 4 digits, expiry; never the number)')
    .argument('<id>', 'Payment method id (pm_…)')
    .action(async (id: string) => run({ id }, f));
  withExamples(command, 'pay payment-methods get pm_123', 'pay payment-methods get pm_123 --json');
}

export async function run(options: { id: string }, f: Factory): Promise<void> {
  const client = await f.client();
  f.io.printObject(await client.call<PaymentMethod>('payment_methods.get', { params: { id: options.id } }));
}
