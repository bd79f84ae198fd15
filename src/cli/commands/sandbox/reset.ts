import type { Command } from 'commander';
import { CancelError, UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { withExamples } from '../../flags.js';

export interface ResetOptions {
  yes: boolean;
}

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('reset')
    .description('Erase every object and event of the profile\'s sandbox account (keys and profile stay)')
    .option('-y, --yes', 'Do not ask for confirmation', false)
    .action(async (flags: ResetOptions) => run(flags, f));
  withExamples(command, 'pay sandbox reset --yes');
}

export async function run(options: ResetOptions, f: Factory): Promise<void> {
  const profile = await f.profile();
  if (!profile.sandbox) throw new UsageError(`Profile '${profile.name}' is not a sandbox: reset only erases sandbox data.`);
  if (!options.yes) {
    if (!f.io.canPrompt) throw new UsageError('Reset erases data: confirm with --yes (no TTY to ask at).');
    if (!(await f.io.confirm(`Erase all objects and events of ${profile.account}?`, false))) throw new CancelError('Reset cancelled.');
  }
  const client = await f.client();
  const result = await client.call<{ account: string; clock: { now: string } }>('test_helpers.reset');
  if (f.io.json) return f.io.printJSON(result);
  f.io.success(`Reset ${result.account}; its clock is at ${result.clock.now}.`);
}
