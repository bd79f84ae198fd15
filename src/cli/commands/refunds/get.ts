import type { Command } from 'commander';
import type { Refund } from '../../../domain/refunds.js';
import type { Factory } from '../../factory.js';
import { withExamples } from '../../flags.js';

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('get')
    .description('Show a refund')
    .argument('<id>', 'Refund id (re_…)')
    .action(async (id: string) => run({ id }, f));
  withExamples(command, 'pay refunds get re_123');
}

export async function run(options: { id: string }, f: Factory): Promise<void> {
  const client = await f.client();
  f.io.printObject(await client.call<Refund>('refunds.get', { params: { id: options.id } }));
}
