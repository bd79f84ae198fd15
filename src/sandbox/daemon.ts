import { spawn } from 'node:child_process';
import { closeSync, fchmodSync, fstatSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { sandboxLogFile, sandboxStartLock } from '../config/paths.js';
import { clearState, readState, type SandboxState, writeState } from '../config/sandbox-state.js';
import { packageFile } from '../infra/package-files.js';
import { acquireLockInTurn, processAlive, processStartOf, sameProcessAlive } from '../infra/pid-lock.js';

export { clearState, processStartOf, readState, type SandboxState, writeState };

/** Whether the recorded sandbox's process still runs: its pid, and not another program given that pid since. */
export const sandboxAlive = (state: SandboxState): boolean => sameProcessAlive(state.pid, state.proc_start);

export const DEFAULT_PORT = 12111;

/** A background sandbox refused its own flags (exit 2) or a conflict (exit 5): its message, and its error code (`port_in_use`, `locked`…). */
export class SandboxStartError extends Error {
  override name = 'SandboxStartError';
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** The last `--json` error object the sandbox wrote to its log: `{error: {code, message, exit_code}}`. */
function lastError(log: string): { code: string; message: string; exit_code: number } | undefined {
  for (const line of log.trim().split('\n').reverse()) {
    try {
      const parsed = JSON.parse(line) as { error?: { code: string; message: string; exit_code: number } };
      if (parsed.error) return parsed.error;
    } catch {
      // Not a JSON line (a warning): keep looking.
    }
  }
  return undefined;
}
const PAY_BIN = fileURLToPath(packageFile('bin/pay.js'));

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
  if (sandboxAlive(state) && (await healthy(state.base_url))) return state;
  return undefined;
}

/**
 * The running sandbox of this config dir, or what `start` makes of it not running, in
 * turn with every other command of the dir: commands that find the sandbox down at once
 * (a CI job's parallel tests, a fresh machine's first commands) would each start one,
 * and all but one would fail on the database the first holds. The first starts it; the
 * others wait for it and find it running. A starter killed meanwhile leaves a stale lock,
 * which the next takes over.
 */
export async function runningOrStarted<T>(dir: string, start: () => Promise<T>): Promise<{ running: SandboxState } | { started: T }> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Longer than two starts (on the port asked for, then on a free one), each given 30 s.
  const release = await acquireLockInTurn(sandboxStartLock(dir), 75_000);
  try {
    const running = await runningSandbox(dir);
    if (running) return { running };
    try {
      return { started: await start() };
    } catch (error) {
      // A starter killed while its sandbox started left that sandbox starting, the database
      // its own: it is this dir's sandbox once it answers.
      const started = error instanceof SandboxStartError && error.code === 'locked' ? await answeringWithin(dir, STARTING_MS) : undefined;
      if (started) return { running: started };
      throw error;
    }
  } finally {
    await release();
  }
}

/** How long a sandbox may take from holding its database to answering (migrations of a large file included). */
const STARTING_MS = 15_000;

/** This dir's sandbox once it answers, polled until `timeoutMs`. */
async function answeringWithin(dir: string, timeoutMs: number): Promise<SandboxState | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const running = await runningSandbox(dir);
    if (running || Date.now() > deadline) return running;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface ReadyLine {
  base_url: string;
  /** A wildcard address it listens on, `0.0.0.0:port` (base_url then uses loopback). */
  listening?: string;
  account: string;
  pid: number;
}

/** A background sandbox ready: its ready line, and the lines it wrote to its log as it started (its warnings), for its starter to tell. */
export type Started = ReadyLine & { said: string[] };

/**
 * Starts `pay sandbox start` in the background with the given arguments and waits for
 * its ready line; its output goes to sandbox.log under the config dir.
 */
export async function startDetached(dir: string, args: string[], env: NodeJS.ProcessEnv): Promise<Started> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const log = openSync(sandboxLogFile(dir), 'a', 0o600);
  // The mode open gives only a file it creates: one left readable by others is made the owner's again.
  fchmodSync(log, 0o600);
  // What this start writes to the log begins here: a refusal is read back from it.
  const from = fstatSync(log).size;
  const child = spawn(process.execPath, [PAY_BIN, 'sandbox', 'start', '--json', ...args], {
    detached: true,
    stdio: ['ignore', 'pipe', log],
    env: { ...env, PAY_CONFIG_DIR: dir },
  });
  closeSync(log);
  try {
    return await new Promise<Started>((resolve, reject) => {
      let buffer = '';
      const timer = setTimeout(() => reject(new Error(`the sandbox did not start within 30s; see ${sandboxLogFile(dir)}`)), 30_000);
      child.stdout!.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        const newline = buffer.indexOf('\n');
        if (newline === -1) return;
        clearTimeout(timer);
        try {
          const ready = JSON.parse(buffer.slice(0, newline)) as ReadyLine;
          // Its stderr is the log, written before its ready line.
          const said = readFileSync(sandboxLogFile(dir)).subarray(from).toString().split('\n').filter((line) => line.trim() !== '');
          resolve({ ...ready, said });
        } catch {
          reject(new Error(`the sandbox printed an unexpected line; see ${sandboxLogFile(dir)}`));
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        const refused = code === 2 || code === 5 ? lastError(readFileSync(sandboxLogFile(dir)).subarray(from).toString()) : undefined;
        if (refused) return reject(new SandboxStartError(refused.message, refused.code));
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
