import { execFileSync, spawnSync } from 'node:child_process';

/** Shells and the terminal multiplexer the TTY and completion tests drive. */
const TOOLS = ['tmux', 'bash', 'zsh', 'fish'];

const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;

/**
 * A fresh machine may lack them: as root with apt-get, install them once before the
 * e2e files run. Otherwise the tests that need one are reported as skipped, naming it.
 */
export default function setup(): void {
  const missing = TOOLS.filter((tool) => !has(tool));
  if (missing.length === 0 || process.getuid?.() !== 0 || !has('apt-get')) return;
  const install = () => execFileSync('apt-get', ['install', '-y', '--no-install-recommends', ...missing], { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  try {
    install();
  } catch {
    try {
      execFileSync('apt-get', ['update'], { stdio: 'ignore' });
      install();
    } catch {
      // Left missing: the tests that need them say so.
    }
  }
}
