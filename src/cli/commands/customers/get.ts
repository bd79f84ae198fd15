import type { Command } from 'commander';
import type { Customer } from '../../../domain/customers.js';
import type { Factory } from '../../factory.js';
import { withExamples } from '../../flags.js';

export interface GetOptions {
  id: string;
}

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('get')
    .description('Show a customer')
    .argument('<id>', 'Customer id (cus_…)')
    .action(async (id: string) => run({ id }, f));
  withExamples(command, 'pay customers get cus_123', 'pay customers get cus_123 --json');
}

export async function run(options: GetOptions, f: Factory): Promise<void> {
  const client = await f.client();
  f.io.printObject(await client.call<Customer>('customers.get', { params: { id: options.id } }));
}
