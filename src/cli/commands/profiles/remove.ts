import { arg, defineCommand } from '../../command.js';
import { UsageError } from '../../errors.js';

export const remove = defineCommand({
  name: 'remove',
  description: 'Remove a profile',
  args: { name: arg.required('<name>', 'Profile name') },
  examples: ['pay profiles remove staging'],
  fields: ['removed'],
  async run(options, f) {
    const store = await f.profiles();
    if (!store.remove(options.name)) throw new UsageError(`No profile named '${options.name}'.`);
    if (f.io.json) return f.io.printJSON({ removed: options.name });
    f.io.success(`Removed profile '${options.name}'.`);
  },
});
