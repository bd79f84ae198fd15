import type { Command } from 'commander';
import type { Charge } from '../../../domain/payment-intents.js';
import type { Factory } from '../../factory.js';
import { withExamples } from '../../flags.js';

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('get')
    .description('Show a charge (amount_captured below amount means a partial authorization)')
    .argument('<id>', 'Charge id (ch_…)')
    .action(async (id: string) => run({ id }, f));
  withExamples(command, 'pay charges get ch_123');
}

export async function run(options: { id: string }, f: Factory): Promise<void> {
  const client = await f.client();
  f.io.printObject(await client.call<Charge>('charges.get', { params: { id: options.id } }));
}
