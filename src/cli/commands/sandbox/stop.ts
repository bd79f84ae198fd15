import { defineCommand } from '../../command.js';

export const stop = defineCommand({
  name: 'stop',
  description: 'Stop the background sandbox of this config dir',
  examples: ['pay sandbox stop'],
  fields: ['stopped', 'running', 'pid'],
  async run(_, f) {
    const daemon = await import('../../../sandbox/daemon.js');
    const state = daemon.readState(f.configDir);
    if (!state || !daemon.sandboxAlive(state)) {
      if (state) daemon.clearState(f.configDir, state.pid);
      if (f.io.json) f.io.printJSON({ stopped: false, running: false });
      else f.io.info('No sandbox is running.');
      return;
    }
    await daemon.stopProcess(state.pid);
    daemon.clearState(f.configDir, state.pid);
    if (f.io.json) f.io.printJSON({ stopped: true, pid: state.pid });
    else f.io.success(`Stopped the sandbox (pid ${state.pid}).`);
  },
});
