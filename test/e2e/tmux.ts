import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PAY_BIN } from './harness.js';

const onPath = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;

/**
 * Whether a program the TTY and completion tests drive (tmux, zsh, fish) is there. A
 * fresh machine may lack it: as root with apt-get it is installed here, once, under a
 * lock shared by the test files; otherwise the tests needing it are reported skipped.
 */
export function hasTool(tool: string): boolean {
  if (onPath(tool)) return true;
  if (process.getuid?.() !== 0 || !onPath('apt-get')) return false;
  const lock = join(tmpdir(), 'pay-e2e-apt.lock');
  const deadline = Date.now() + 600_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > deadline) return false;
      spawnSync('sleep', ['1']);
    }
  }
  try {
    if (onPath(tool)) return true;
    const options = { stdio: 'ignore', timeout: 600_000, env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } } as const;
    const install = () => spawnSync('apt-get', ['install', '-y', '--no-install-recommends', tool], options).status === 0;
    if (!install()) {
      spawnSync('apt-get', ['update'], options);
      install();
    }
    return onPath(tool);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** A directory with a `pay` on PATH that runs this build on this Node, as an installed bin would. */
export function payOnPath(): { dir: string; path: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'pay-bin-'));
  writeFileSync(join(dir, 'pay'), `#!/bin/sh\nexec '${process.execPath}' '${PAY_BIN}' "$@"\n`, { mode: 0o755 });
  return { dir, path: `${dir}:${process.env.PATH}`, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

let sessions = 0;

/**
 * A program at a real TTY: a tmux session on a private server, driven by keys and read
 * from the screen.
 */
export class Tmux {
  private readonly socket = `pay-e2e-${process.pid}-${++sessions}`;

  private constructor() {}

  static start(command: string, env: Record<string, string | undefined>, size = { width: 160, height: 40 }): Tmux {
    const tmux = new Tmux();
    const vars = Object.entries({ TERM: 'xterm-256color', ...env })
      .filter((entry): entry is [string, string] => entry[1] !== undefined)
      .map(([k, v]) => `${k}=${quote(v)}`);
    // The exit status is printed after the program, and the pane stays: tmux may close a
    // pane whose program ended before it read the program's last output. The shell traps
    // Ctrl-C's SIGINT (the program gets it as at any prompt) so that it lives to say so.
    const script = `trap : INT; ${command}; echo "[exit $?]"; exec sleep 600`;
    tmux.run('-f', '/dev/null', 'new-session', '-d', '-x', String(size.width), '-y', String(size.height), `env -i ${vars.join(' ')} sh -c ${quote(script)}`);
    return tmux;
  }

  private run(...args: string[]): string {
    const result = spawnSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`tmux ${args[0]} failed: ${result.stderr}`);
    return result.stdout;
  }

  /** Keys as tmux names them: literal text, or `Enter`, `Tab`, `C-c`. */
  send(...keys: string[]): void {
    this.run('send-keys', '-t', '0', ...keys);
  }

  /** Literal text, never read as key names. */
  type(text: string): void {
    this.run('send-keys', '-t', '0', '-l', '--', text);
  }

  screen(): string {
    return this.run('capture-pane', '-p', '-t', '0', '-S', '-200');
  }

  /** Waits until the screen matches, and returns it. */
  async waitFor(pattern: RegExp, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = this.screen();
      if (pattern.test(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}; the screen:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** The exit status of the program, once it has ended. */
  async exitCode(timeoutMs = 15_000): Promise<number> {
    const screen = await this.waitFor(/^\[exit \d+\]$/m, timeoutMs);
    return Number(/^\[exit (\d+)\]$/m.exec(screen)![1]);
  }

  kill(): void {
    spawnSync('tmux', ['-L', this.socket, 'kill-server']);
  }
}

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
