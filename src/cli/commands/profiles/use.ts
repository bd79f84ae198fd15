import { arg, defineCommand } from '../../command.js';
import { UsageError } from '../../errors.js';

export const use = defineCommand({
  name: 'use',
  description: 'Make a profile the default',
  args: { name: arg.required('<name>', 'Profile name') },
  examples: ['pay profiles use staging', 'pay profiles use sandbox      # back to the local sandbox'],
  fields: ['default_profile'],
  async run(options, f) {
    const store = await f.profiles();
    if (!store.get(options.name)) throw new UsageError(`No profile named '${options.name}'. Profiles: ${store.names().join(', ') || '(none)'}.`);
    await store.setDefault(options.name);
    if (f.io.json) return f.io.printJSON({ default_profile: options.name });
    f.io.success(`'${options.name}' is now the default profile.`);
  },
});
