import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { afterAll, afterEach } from 'vitest';

/** A fetch answer: its body as JSON, or as text where it is not JSON (an HTML page, a redirect). */
export async function readAnswer(res: Response): Promise<{ status: number; body: any; headers: Headers }> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  return { status: res.status, body, headers: res.headers };
}

export const PAY_BIN = fileURLToPath(new URL('../../bin/pay.js', import.meta.url));

export interface PayResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** A clean environment: no colour, no CI prompts suppression unless asked, no stray PAY_* variables. */
export function baseEnv(configDir: string, extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('PAY_') || key === 'FORCE_COLOR') delete env[key];
  return { ...env, PAY_CONFIG_DIR: configDir, NO_COLOR: '1', ...extra };
}

/** Runs the real `pay` binary on this Node, never throwing on a non-zero exit. */
export async function runPay(args: string[], options: { env: Record<string, string | undefined>; input?: string; timeout?: number }): Promise<PayResult> {
  const result = await execa(process.execPath, [PAY_BIN, ...args], {
    env: options.env,
    extendEnv: false,
    input: options.input ?? '',
    reject: false,
    timeout: options.timeout ?? 30_000,
  });
  return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}

/**
 * Fresh config dirs for the tests of one file (`prefix` names them in the temp dir). The
 * sandboxes a test's dirs hold are stopped after it (a detached sandbox left by a failed
 * test would outlive the run), and the dirs removed after the file.
 */
export function configDirs(prefix: string): () => string {
  const made: string[] = [];
  let current: string[] = [];
  afterEach(async () => {
    for (const dir of current) await runPay(['sandbox', 'stop'], { env: baseEnv(dir) });
    current = [];
  });
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    made.push(dir);
    current.push(dir);
    return dir;
  };
}

/** The config file of a config dir, as written. */
export const readConfig = (dir: string) => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));

export interface TTYResult {
  exitCode: number | undefined;
  /** Everything the terminal showed (stdout and stderr). */
  screen: string;
  /** Prompts that never appeared. */
  unanswered: string[];
}

/** Runs `pay` in a pseudo-terminal (util-linux script), answering each prompt (text, keys) as it appears. */
export async function runPayAtTTY(args: string[], answers: Array<[string, string]>, env: Record<string, string | undefined>): Promise<TTYResult> {
  const command = [process.execPath, PAY_BIN, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  const child = execa('script', ['-qfec', command, '/dev/null'], { env: { ...env, CI: undefined, TERM: 'xterm' }, extendEnv: false, reject: false, timeout: 30_000 });
  let screen = '';
  let from = 0;
  const pending = [...answers];
  child.stdout!.on('data', (chunk: Buffer) => {
    screen += chunk.toString();
    while (pending.length > 0) {
      const at = screen.indexOf(pending[0]![0], from);
      if (at === -1) break;
      from = at + pending[0]![0].length;
      child.stdin!.write(pending.shift()![1]);
    }
  });
  const result = await child;
  return { exitCode: result.exitCode, screen, unanswered: pending.map(([prompt]) => prompt) };
}

export interface SandboxHandle {
  baseUrl: string;
  account: string;
  apiKey: string;
  configDir: string;
  env: Record<string, string | undefined>;
  /** Runs `pay` against this sandbox (its own config dir). */
  pay(args: string[], options?: { input?: string; env?: Record<string, string | undefined>; timeout?: number }): Promise<PayResult>;
  /** Runs `pay ... --json` and parses stdout, failing loudly on a non-zero exit. */
  json<T = any>(args: string[]): Promise<T>;
  /** Runs `pay` at a pseudo-terminal, answering its prompts. */
  atTTY(args: string[], answers: Array<[string, string]>): Promise<TTYResult>;
  /** A raw HTTP call with this account's auth. */
  http(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
  /** Starts a long-running `pay` command (listen, tail) against this sandbox. */
  spawn(args: string[], options?: { env?: Record<string, string | undefined> }): PayProcess;
  stop(): Promise<void>;
  /** SIGKILLs the sandbox process, as a crash: no cleanup runs. */
  kill(): Promise<void>;
  /**
   * Stops the sandbox process if it still runs (SIGTERM), then (once `whileDown` is done,
   * if given) starts a new one on the same port, database and config dir; the handle then
   * talks to it.
   */
  restart(whileDown?: () => Promise<void>): Promise<void>;
}

/** A running `pay` process whose output is read as it comes. */
export interface PayProcess {
  readonly stdout: string[];
  readonly stderr: () => string;
  /** Resolves with the first stdout line (from `from` on) that matches. */
  line(match: RegExp, options?: { timeoutMs?: number; from?: number }): Promise<string>;
  /** Resolves once stderr matches. */
  said(match: RegExp, timeoutMs?: number): Promise<void>;
  signal(signal: NodeJS.Signals): void;
  /** Resolves with the exit code once the process ends. */
  exited(): Promise<number>;
}

export function spawnPay(args: string[], env: Record<string, string | undefined>): PayProcess {
  const child = execa(process.execPath, [PAY_BIN, ...args], { env, extendEnv: false, reject: false, buffer: false, stdin: 'ignore' });
  const stdout: string[] = [];
  let partial = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  const changed = () => {
    for (const waiter of waiters) waiter();
  };
  child.stdout?.on('data', (chunk: Buffer) => {
    partial += chunk.toString();
    const lines = partial.split('\n');
    partial = lines.pop()!;
    stdout.push(...lines);
    changed();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    changed();
  });
  const done = child.then((r) => r.exitCode ?? -1);
  void done.then(changed);
  const wait = (test: () => boolean, what: string, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!test()) return;
        clear();
        resolve();
      };
      const timer = setTimeout(() => {
        clear();
        reject(new Error(`pay ${args.join(' ')}: no ${what} within ${timeoutMs}ms\nstdout:\n${stdout.join('\n')}\nstderr:\n${stderr}`));
      }, timeoutMs);
      const clear = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  return {
    stdout,
    stderr: () => stderr,
    async line(match, options = {}) {
      const found = () => stdout.slice(options.from ?? 0).find((l) => match.test(l));
      await wait(() => found() !== undefined, `line matching ${match}`, options.timeoutMs ?? 15_000);
      return found()!;
    },
    said: (match, timeoutMs = 15_000) => wait(() => match.test(stderr), `stderr matching ${match}`, timeoutMs),
    signal: (signal) => void child.kill(signal),
    exited: () => done,
  };
}

let counter = 0;

/**
 * A real sandbox process on a free loopback port, with its own config dir and an
 * in-memory (or given) database, its account and key fixed by the environment as in CI.
 */
export async function startSandbox(options: { clock?: string; db?: string; args?: string[]; env?: Record<string, string> } = {}): Promise<SandboxHandle> {
  const configDir = mkdtempSync(join(tmpdir(), 'pay-e2e-'));
  const account = `acct_e2e${process.pid}x${++counter}`;
  const apiKey = `sk_test_e2e_${process.pid}_${counter}_abcdefghijklmnopqrstuvwxyz`;
  const env = baseEnv(configDir, { PAY_SANDBOX_ACCOUNT: account, PAY_SANDBOX_API_KEY: apiKey, ...options.env });
  const args = (port: string) => [
    PAY_BIN, 'sandbox', 'start', '--port', port, '--json',
    ...(options.db ? ['--db', options.db] : ['--memory']),
    ...(options.clock ? ['--clock', options.clock] : []),
    ...(options.args ?? []),
  ];
  let current = await spawnSandbox(args('0'), env);
  const handle: SandboxHandle = {
    get baseUrl() {
      return current.ready.base_url;
    },
    account,
    apiKey,
    configDir,
    env,
    pay: (a, o = {}) => runPay(a, { env: { ...env, ...o.env }, input: o.input, timeout: o.timeout }),
    atTTY: (a, answers) => runPayAtTTY(a, answers, env),
    async json(a) {
      const result = await runPay([...a, '--json'], { env });
      if (result.exitCode !== 0) throw new Error(`pay ${a.join(' ')} exited ${result.exitCode}: ${result.stderr}`);
      return JSON.parse(result.stdout);
    },
    async http(method, path, body, headers = {}) {
      const res = await fetch(new URL(path, current.ready.base_url), {
        method,
        headers: { 'pay-account': account, 'pay-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      return readAnswer(res);
    },
    spawn: (a, o = {}) => spawnPay(a, { ...env, ...o.env }),
    async stop() {
      current.child.kill('SIGTERM');
      await current.child;
      rmSync(configDir, { recursive: true, force: true });
    },
    async kill() {
      current.child.kill('SIGKILL');
      await current.child;
    },
    async restart(whileDown) {
      current.child.kill('SIGTERM');
      await current.child;
      await whileDown?.();
      current = await spawnSandbox(args(new URL(current.ready.base_url).port), env);
    },
  };
  return handle;
}

async function spawnSandbox(args: string[], env: Record<string, string | undefined>): Promise<{ child: ResultPromise; ready: { base_url: string } }> {
  const child: ResultPromise = execa(process.execPath, args, { env, extendEnv: false, reject: false, buffer: false, stdin: 'ignore' });
  const ready = await new Promise<{ base_url: string; account: string; pid: number }>((resolve, reject) => {
    let buffer = '';
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const nl = buffer.indexOf('\n');
      if (nl !== -1) resolve(JSON.parse(buffer.slice(0, nl)));
    });
    void child.then((r) => reject(new Error(`sandbox exited (${r.exitCode}) before ready: ${stderr}`)));
  });
  return { child, ready };
}
