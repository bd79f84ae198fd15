import { defineCommand } from '../../command.js';
import { NotRunningError } from '../../errors.js';

export const status = defineCommand({
  name: 'status',
  description: 'Show whether the sandbox is running (exit 7 when it is not)',
  examples: ['pay sandbox status', 'pay sandbox status --json || pay sandbox start --detach'],
  fields: ['running', 'pid', 'base_url', 'account', 'db', 'started'],
  async run(_, f) {
    const daemon = await import('../../../sandbox/daemon.js');
    const state = await daemon.runningSandbox(f.configDir);
    if (!state) {
      if (f.io.json) f.io.printJSON({ running: false });
      // Its process alive, it holds its port and database: a start would fail on them, so it is named.
      const recorded = daemon.readState(f.configDir);
      if (recorded && daemon.sandboxAlive(recorded)) {
        throw new NotRunningError(`The sandbox (pid ${recorded.pid}) runs but does not answer at ${recorded.base_url}: it may be suspended (Ctrl-Z) or stuck. Stop it with: pay sandbox stop`);
      }
      throw new NotRunningError('The sandbox is not running. Start it with: pay sandbox start (or pay sandbox start --detach to run it in the background).');
    }
    // Not proc_start: it tells the process from a later one given its pid, nothing a user acts on.
    f.io.printObject({ running: true, pid: state.pid, base_url: state.base_url, account: state.account, db: state.db, started: state.started });
  },
});
