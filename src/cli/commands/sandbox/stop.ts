import type { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { withExamples } from '../../flags.js';

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('stop')
    .description('Stop the background sandbox of this config dir')
    .action(async () => run(f));
  withExamples(command, 'pay sandbox stop');
}

export async function run(f: Factory): Promise<void> {
  const daemon = await import('../../../sandbox/daemon.js');
  const state = daemon.readState(f.configDir);
  if (!state || !daemon.processAlive(state.pid)) {
    if (state) daemon.clearState(f.configDir, state.pid);
    if (f.io.json) f.io.printJSON({ stopped: false, running: false });
    else f.io.info('No sandbox is running.');
    return;
  }
  await daemon.stopProcess(state.pid);
  daemon.clearState(f.configDir, state.pid);
  if (f.io.json) f.io.printJSON({ stopped: true, pid: state.pid });
  else f.io.success(`Stopped the sandbox (pid ${state.pid}).`);
}
