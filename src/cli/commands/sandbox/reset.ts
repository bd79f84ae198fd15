import { maybeSandbox } from '../../../config/resolve.js';
import { UsageError } from '../../errors.js';
import { confirmed, requireYes, yesFlag } from '../../prompts.js';
import type { Factory } from '../../factory.js';
import { defineCommand, type OptionsOf } from '../../command.js';

const flags = yesFlag;
export type ResetOptions = OptionsOf<Record<never, never>, typeof flags>;

export const reset = defineCommand({
  name: 'reset',
  description: 'Erase every object and event of the profile\'s sandbox account (keys and profile stay)',
  flags,
  examples: ['pay sandbox reset --yes'],
  fields: ['object', 'account', 'clock'],
  run: (options, f) => run(options, f),
});

export async function run(options: ResetOptions, f: Factory): Promise<void> {
  // A usage error, before the profile: finding it starts a stopped sandbox.
  requireYes(f.io, options.yes, 'reset erases every object and event of the sandbox account');
  const profile = await f.profile();
  if (!maybeSandbox(profile)) throw new UsageError(`Profile '${profile.name}' (${profile.base_url}) is not a sandbox: reset only erases sandbox data.`);
  await confirmed(f.io, options.yes, `Erase all objects and events of ${profile.account}?`, 'Nothing was changed.');
  const client = await f.client();
  const result = await client.call<{ account: string; clock: { now: string } }>('test_helpers.reset');
  if (f.io.json) return f.io.printJSON(result);
  f.io.success(`Reset ${result.account}; its clock is at ${result.clock.now}.`);
}
