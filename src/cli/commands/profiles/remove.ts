import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { withExamples } from '../../flags.js';

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('remove')
    .description('Remove a profile')
    .argument('<name>', 'Profile name')
    .action(async (name: string) => run({ name }, f));
  withExamples(command, 'pay profiles remove staging');
}

export async function run(options: { name: string }, f: Factory): Promise<void> {
  const store = await f.profiles();
  if (!store.remove(options.name)) throw new UsageError(`No profile named '${options.name}'.`);
  if (f.io.json) return f.io.printJSON({ removed: options.name });
  f.io.success(`Removed profile '${options.name}'.`);
}
