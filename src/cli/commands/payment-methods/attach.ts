import type { Command } from 'commander';
import { PaymentMethodAttach, type PaymentMethod } from '../../../domain/payment-methods.js';
import type { Factory } from '../../factory.js';
import { checkedBody, withExamples } from '../../flags.js';

export interface AttachOptions {
  id: string;
  customer: string;
}

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('attach')
    .description('Attach a payment method to a customer (emits payment_method.attached)')
    .argument('<id>', 'Payment method id (pm_…)')
    .option('--customer <cus_id>', 'Customer to attach it to')
    .action(async (id: string, flags: { customer?: string }) => {
      const customer = flags.customer ?? (await f.io.ask('--customer', 'Customer id (cus_…)'));
      await run({ id, customer }, f);
    });
  withExamples(command, 'pay payment-methods attach pm_123 --customer cus_123');
}

export async function run(options: AttachOptions, f: Factory): Promise<void> {
  const body = checkedBody(PaymentMethodAttach, { customer_id: options.customer });
  const client = await f.client();
  const pm = await client.call<PaymentMethod>('payment_methods.attach', { params: { id: options.id }, body });
  if (f.io.human) f.io.success(`Attached ${pm.id} to ${pm.customer_id}`);
  f.io.printObject(pm);
}
