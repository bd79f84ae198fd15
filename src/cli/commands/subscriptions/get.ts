import type { Command } from 'commander';
import type { Subscription } from '../../../domain/subscriptions.js';
import type { Factory } from '../../factory.js';
import { withExamples } from '../../flags.js';

export interface GetOptions {
  id: string;
}

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('get')
    .description('Show a subscription')
    .argument('<id>', 'Subscription id (sub_…)')
    .action(async (id: string) => run({ id }, f));
  withExamples(command, 'pay subscriptions get sub_123', 'pay subscriptions get sub_123 --json');
}

export async function run(options: GetOptions, f: Factory): Promise<void> {
  const client = await f.client();
  f.io.printObject(await client.call<Subscription>('subscriptions.get', { params: { id: options.id } }));
}
