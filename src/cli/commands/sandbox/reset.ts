import { CancelError, UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { defineCommand, flag, type OptionsOf } from '../../command.js';

const flags = { yes: flag.bool('-y, --yes', 'Do not ask for confirmation') };
export type ResetOptions = OptionsOf<Record<never, never>, typeof flags>;

export const reset = defineCommand({
  name: 'reset',
  description: 'Erase every object and event of the profile\'s sandbox account (keys and profile stay)',
  flags,
  examples: ['pay sandbox reset --yes'],
  fields: ['account', 'clock'],
  run: (options, f) => run(options, f),
});

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
