import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { withExamples } from '../../flags.js';

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('use')
    .description('Make a profile the default')
    .argument('<name>', 'Profile name')
    .action(async (name: string) => run({ name }, f));
  withExamples(command, 'pay profiles use staging', 'pay profiles use sandbox      # back to the local sandbox');
}

export async function run(options: { name: string }, f: Factory): Promise<void> {
  const store = await f.profiles();
  if (!store.get(options.name)) throw new UsageError(`No profile named '${options.name}'. Profiles: ${store.names().join(', ') || '(none)'}.`);
  store.setDefault(options.name);
  if (f.io.json) return f.io.printJSON({ default_profile: options.name });
  f.io.success(`'${options.name}' is now the default profile.`);
}
