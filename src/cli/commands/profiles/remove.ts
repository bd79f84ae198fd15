import { arg, defineCommand } from '../../command.js';
import { UsageError } from '../../errors.js';
import { confirmDestructive, yesFlag } from '../../prompts.js';

export const remove = defineCommand({
  name: 'remove',
  description: 'Remove a profile, with its listen secret and spooled events',
  args: { name: arg.required('<name>', 'Profile name') },
  flags: yesFlag,
  examples: ['pay profiles remove staging', 'pay profiles remove staging --yes'],
  fields: ['removed'],
  async run(options, f) {
    const store = await f.profiles();
    const saved = store.get(options.name);
    if (!saved) throw new UsageError(`No profile named '${options.name}'.`);
    await confirmDestructive(
      f.io,
      options.yes,
      `removing profile '${options.name}' deletes its key, its listen secret (its apps' signing secret) and the events its listen spooled`,
      `Remove profile '${options.name}', with its listen secret and spooled events?`,
    );
    // Its listen secret and the events its listen spooled go with it.
    const { forgetListenIdentity } = await import('../../../webhooks/identity.js');
    await forgetListenIdentity(store.dir, options.name, saved);
    await store.remove(options.name);
    if (f.io.json) return f.io.printJSON({ removed: options.name });
    f.io.success(`Removed profile '${options.name}'.`);
  },
});
