import type { Command } from 'commander';
import type { TerminalReader } from '../../../domain/terminal-readers.js';
import type { Factory } from '../../factory.js';
import { withExamples } from '../../flags.js';

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('get')
    .description('Show a terminal reader (status online while it is connected)')
    .argument('<id>', 'Terminal reader id (tmr_…)')
    .action(async (id: string) => run({ id }, f));
  withExamples(command, 'pay readers get tmr_123');
}

export async function run(options: { id: string }, f: Factory): Promise<void> {
  const client = await f.client();
  f.io.printObject(await client.call<TerminalReader>('terminal_readers.get', { params: { id: options.id } }));
}
