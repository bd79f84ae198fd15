import { SANDBOX_PROFILE } from '../../../config/profile.js';
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
    // The sandbox's profile is in force even before pay sandbox start writes it (its sandbox starts on demand), as --profile sandbox is.
    if (options.name !== SANDBOX_PROFILE && !store.get(options.name)) throw new UsageError(`No profile named '${options.name}'. Profiles: ${store.names().join(', ') || '(none)'}.`);
    await store.setDefault(options.name);
    if (f.io.json) return f.io.printJSON({ default_profile: options.name });
    f.io.success(`'${options.name}' is now the default profile.`);
    // The environment wins over the default (flag > env > file): saying so spares a user who sees nothing change.
    const fromEnv = f.env.PAY_PROFILE;
    if (fromEnv && fromEnv !== options.name) f.io.warn(`PAY_PROFILE=${fromEnv} is set, and wins over the default: commands here use '${fromEnv}' until it is unset.`);
  },
});
