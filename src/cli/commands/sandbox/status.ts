import { defineCommand } from '../../command.js';
import { NotRunningError } from '../../errors.js';

export const status = defineCommand({
  name: 'status',
  description: 'Show whether the sandbox is running (exit 7 when it is not)',
  examples: ['pay sandbox status', 'pay sandbox status --json || pay sandbox start --detach'],
  async run(_, f) {
    const daemon = await import('../../../sandbox/daemon.js');
    const state = await daemon.runningSandbox(f.configDir);
    if (!state) {
      if (f.io.json) f.io.printJSON({ running: false });
      throw new NotRunningError('The sandbox is not running. Start it with: pay sandbox start (or pay sandbox start --detach to run it in the background).');
    }
    f.io.printObject({ running: true, ...state });
  },
});
