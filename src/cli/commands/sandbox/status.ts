import { NetworkError } from '../../../client/errors.js';
import { defineCommand } from '../../command.js';

export const status = defineCommand({
  name: 'status',
  description: 'Show whether the sandbox is running (exit 7 when it is not)',
  examples: ['pay sandbox status', 'pay sandbox status --json || pay sandbox start --detach'],
  async run(_, f) {
    const daemon = await import('../../../sandbox/daemon.js');
    const state = await daemon.runningSandbox(f.configDir);
    if (!state) {
      if (f.io.json) f.io.printJSON({ running: false });
      throw new NetworkError('The sandbox is not running. Start it with: pay sandbox start --detach', daemon.readState(f.configDir)?.base_url ?? '');
    }
    f.io.printObject({ running: true, ...state });
  },
});
