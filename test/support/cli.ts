import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll } from 'vitest';
import { main } from '../../src/cli/main.js';
import { SANDBOX_PROFILE } from '../../src/config/profile.js';
import { ProfileStore } from '../../src/config/store.js';
import { writeState } from '../../src/sandbox/daemon.js';
import { startTestSandbox, type TestSandbox } from './sandboxes.js';

/*
 * Commands run in this process (gh's pattern of a command with a test IO): `main(argv,
 * streams)` with fake stdin, stdout, stderr and environment, against an in-process
 * sandbox. What needs a real process (start-up, a TTY, signals, kill -9) stays in e2e.
 */

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliRunOptions {
  env?: Record<string, string | undefined>;
  /** What stdin holds (`--api-key-stdin`). */
  input?: string;
  /** stdout and stderr are a terminal (human output); stdin stays piped, so nothing is asked. */
  terminal?: boolean;
}

/** Runs `pay <args>` in-process; never throws on a non-zero exit. */
export async function runCli(args: string[], options: { env: Record<string, string | undefined>; input?: string | undefined; terminal?: boolean | undefined }): Promise<CliResult> {
  const stream = (isTTY = false) => Object.assign(new PassThrough(), { isTTY, columns: 80 });
  const stdin = stream();
  stdin.end(options.input ?? '');
  const stdout = stream(options.terminal);
  const stderr = stream(options.terminal);
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const env = Object.fromEntries(Object.entries(options.env).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv;
  const code = await main(['node', 'pay', ...args], {
    stdin: stdin as unknown as NodeJS.ReadStream,
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: stderr as unknown as NodeJS.WriteStream,
    env,
  });
  // As execa gives them: without the final newline.
  return { code, stdout: out.replace(/\n$/, ''), stderr: err.replace(/\n$/, '') };
}

/** The environment of a run: its own config dir, no colour; nothing inherited from this process. */
export const cliEnv = (configDir: string, extra: Record<string, string | undefined> = {}) => ({ PAY_CONFIG_DIR: configDir, NO_COLOR: '1', ...extra });

export interface CliSandbox {
  sandbox: TestSandbox;
  baseUrl: string;
  account: string;
  apiKey: string;
  configDir: string;
  env: Record<string, string | undefined>;
  /** A JSON request to the sandbox with the account's auth (set-up and checks, not what is tested). */
  http(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** `pay <args>` against the sandbox, through its `sandbox` profile (the default). */
  pay(args: string[], options?: CliRunOptions): Promise<CliResult>;
  /** `pay <args> --json`, parsed; fails naming stderr on a non-zero exit. */
  json<T = any>(args: string[]): Promise<T>;
}

/**
 * An in-process sandbox for the tests of a file, with a config dir whose default
 * `sandbox` profile points at it, as `pay sandbox start` leaves one.
 */
export function cliSandbox(options: Parameters<typeof startTestSandbox>[0] = {}): CliSandbox {
  const handle = {} as CliSandbox;
  beforeAll(async () => {
    const sandbox = await startTestSandbox(options);
    const configDir = mkdtempSync(join(tmpdir(), 'pay-cli-'));
    const store = new ProfileStore(configDir);
    await store.set(SANDBOX_PROFILE, { base_url: sandbox.baseUrl, account: sandbox.account, api_key: sandbox.apiKey, header_prefix: 'pay', sandbox: true }, true);
    // This process is the sandbox's: the CLI finds it running and starts none.
    writeState(configDir, { pid: process.pid, base_url: sandbox.baseUrl, account: sandbox.account, db: ':memory:', started: new Date().toISOString() });
    const env = cliEnv(configDir);
    Object.assign(handle, {
      sandbox,
      baseUrl: sandbox.baseUrl,
      account: sandbox.account,
      apiKey: sandbox.apiKey,
      configDir,
      env,
      http: (method: string, path: string, body?: unknown) => sandbox.call(method, path, body),
      pay: (args: string[], run: CliRunOptions = {}) => runCli(args, { env: { ...handle.env, ...run.env }, input: run.input, terminal: run.terminal }),
      async json(args: string[]) {
        const result = await runCli([...args, '--json'], { env: handle.env });
        if (result.code !== 0) throw new Error(`pay ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
        return JSON.parse(result.stdout);
      },
    });
  });
  afterAll(async () => {
    await handle.sandbox?.close();
    if (handle.configDir) rmSync(handle.configDir, { recursive: true, force: true });
  });
  return handle;
}
