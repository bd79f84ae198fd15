import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { sandboxLogFile, sandboxStateFile } from '../config/paths.js';
import { packageFile } from '../infra/package-files.js';
import { processAlive } from '../infra/pid-lock.js';

export { processAlive };

/** What a running sandbox leaves under the config dir, for stop, status and auto-start. */
export interface SandboxState {
  pid: number;
  base_url: string;
  account: string;
  db: string;
  started: string;
}

export const DEFAULT_PORT = 12111;
const PAY_BIN = fileURLToPath(packageFile('bin/pay.js'));

export function readState(dir: string): SandboxState | undefined {
  try {
    return JSON.parse(readFileSync(sandboxStateFile(dir), 'utf8')) as SandboxState;
  } catch {
    return undefined;
  }
}

export function writeState(dir: string, state: SandboxState): void {
  writeFileSync(sandboxStateFile(dir), `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}

export function clearState(dir: string, pid: number): void {
  if (readState(dir)?.pid === pid) rmSync(sandboxStateFile(dir), { force: true });
}

export async function healthy(baseUrl: string): Promise<boolean> {
  try {
    const res = await request(new URL('/healthz', baseUrl), { headersTimeout: 2_000, bodyTimeout: 2_000 });
    await res.body.dump();
    return res.statusCode === 200;
  } catch {
    return false;
  }
}

/** The running sandbox of this config dir, if its process is alive and answering. */
export async function runningSandbox(dir: string): Promise<SandboxState | undefined> {
  const state = readState(dir);
  if (!state) return undefined;
  if (processAlive(state.pid) && (await healthy(state.base_url))) return state;
  return undefined;
}

export interface ReadyLine {
  base_url: string;
  /** A wildcard address it listens on, `0.0.0.0:port` (base_url then uses loopback). */
  listening?: string;
  account: string;
  pid: number;
}

/**
 * Starts `pay sandbox start` in the background with the given arguments and waits for
 * its ready line; its output goes to sandbox.log under the config dir.
 */
export async function startDetached(dir: string, args: string[], env: NodeJS.ProcessEnv): Promise<ReadyLine> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const log = openSync(sandboxLogFile(dir), 'a', 0o600);
  const child = spawn(process.execPath, [PAY_BIN, 'sandbox', 'start', '--json', ...args], {
    detached: true,
    stdio: ['ignore', 'pipe', log],
    env: { ...env, PAY_CONFIG_DIR: dir },
  });
  closeSync(log);
  try {
    return await new Promise<ReadyLine>((resolve, reject) => {
      let buffer = '';
      const timer = setTimeout(() => reject(new Error(`the sandbox did not start within 30s; see ${sandboxLogFile(dir)}`)), 30_000);
      child.stdout!.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        const newline = buffer.indexOf('\n');
        if (newline === -1) return;
        clearTimeout(timer);
        try {
          resolve(JSON.parse(buffer.slice(0, newline)) as ReadyLine);
        } catch {
          reject(new Error(`the sandbox printed an unexpected line; see ${sandboxLogFile(dir)}`));
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the sandbox exited with code ${code} before it was ready; see ${sandboxLogFile(dir)}`));
      });
    });
  } finally {
    child.stdout!.destroy();
    child.removeAllListeners('exit');
    child.unref();
  }
}

/** Sends SIGTERM and waits for the process to go. */
export async function stopProcess(pid: number, timeoutMs = 10_000): Promise<boolean> {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return false;
  }
  const deadline = Date.now() + timeoutMs;
  while (processAlive(pid)) {
    if (Date.now() > deadline) {
      process.kill(pid, 'SIGKILL');
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}
