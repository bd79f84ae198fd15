import { z } from 'zod';
import { DateString } from '../../../domain/common.js';
import { SANDBOX_PROFILE } from '../../../config/profile.js';
import { sandboxDbFile } from '../../../config/paths.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { defineCommand, flag, type OptionsOf } from '../../command.js';

const flags = {
  port: flag.int('--port <n>', 'Port to listen on; 0 picks a free one', { default: 12111 }),
  host: flag.string('--host <host>', 'Address to listen on', { default: '127.0.0.1' }),
  db: flag.string('--db <file>', 'SQLite database file (default: sandbox.db in the config dir)'),
  memory: flag.bool('--memory', 'Keep everything in memory; nothing survives a stop'),
  clock: flag.string('--clock <date>', 'Start new accounts\' test clocks at this date (YYYY-MM-DD) or date-time, for reproducible runs'),
  detach: flag.bool('--detach', 'Run in the background and return once it accepts requests'),
};
export type StartOptions = OptionsOf<Record<never, never>, typeof flags>;

const ClockFlag = z.union([DateString, z.iso.datetime({ offset: true })]);

export const start = defineCommand({
  name: 'start',
  description: 'Start the local sandbox service (it becomes the `sandbox` profile)',
  flags,
  examples: [
    'pay sandbox start                    # in the foreground; Ctrl-C stops it',
    'pay sandbox start --detach --json    # {"base_url", "account", "pid"}',
    'pay sandbox start --port 0 --memory --clock 2030-01-01',
    'PAY_SANDBOX_RETRY_SCALE=0.001 pay sandbox start   # webhook retries after 1 ms, 5 ms, 30 ms… (tests)',
  ],
  fields: ['base_url', 'account', 'pid'],
  run: (options, f) => run(options, f),
});

/**
 * `PAY_SANDBOX_RETRY_SCALE` multiplies the webhook retry schedule (1 s, 5 s, 30 s, 2 min,
 * 10 min, 1 h, then hourly for 24 h), so tests need not wait minutes.
 */
function retryScale(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env.PAY_SANDBOX_RETRY_SCALE;
  if (raw === undefined || raw === '') return undefined;
  const scale = Number(raw);
  if (!Number.isFinite(scale) || scale <= 0) {
    throw new UsageError(`Invalid PAY_SANDBOX_RETRY_SCALE '${raw}': must be a positive number (1 is real time; 0.001 makes 1 s into 1 ms).`);
  }
  return scale;
}

function checkOptions(options: StartOptions): string | undefined {
  if (options.port < 0 || options.port > 65_535) throw new UsageError('Invalid --port: must be from 0 to 65535.');
  if (options.memory && options.db) throw new UsageError('--db and --memory cannot be used together: choose one.');
  if (options.clock === undefined) return undefined;
  if (!ClockFlag.safeParse(options.clock).success) throw new UsageError(`Invalid --clock: must be a date (YYYY-MM-DD) or an ISO 8601 date-time, got '${options.clock}'.`);
  return /^\d{4}-\d{2}-\d{2}$/.test(options.clock) ? `${options.clock}T00:00:00Z` : new Date(options.clock).toISOString().replace(/\.000Z$/, 'Z');
}

export async function run(options: StartOptions, f: Factory): Promise<void> {
  const clock = checkOptions(options);
  const scale = retryScale(f.env);
  const daemon = await import('../../../sandbox/daemon.js');
  const dir = f.configDir;
  const running = await daemon.runningSandbox(dir);
  if (options.detach) {
    if (running) {
      printReady(f, { base_url: running.base_url, account: running.account, pid: running.pid }, true);
      return;
    }
    const args = ['--port', String(options.port), '--host', options.host];
    if (options.memory) args.push('--memory');
    if (options.db) args.push('--db', options.db);
    if (options.clock) args.push('--clock', options.clock);
    printReady(f, await daemon.startDetached(dir, args, f.env), false);
    return;
  }
  if (running) {
    throw new UsageError(`A sandbox is already running at ${running.base_url} (pid ${running.pid}). Stop it with: pay sandbox stop`);
  }

  const profiles = await f.profiles();
  const saved = profiles.get(SANDBOX_PROFILE);
  const { newApiKey } = await import('../../../sandbox/store/accounts.js');
  // CI brings its own account and key (never printed); otherwise the profile's, made once.
  const account = f.env.PAY_SANDBOX_ACCOUNT || saved?.account;
  const apiKey = f.env.PAY_SANDBOX_API_KEY || saved?.api_key || newApiKey();

  const { buildServer } = await import('../../../sandbox/server.js');
  const db = options.memory ? ':memory:' : (options.db ?? sandboxDbFile(dir));
  const { app, sandbox } = await buildServer({ db, clock, headerPrefix: 'pay', webhooks: { retryScale: scale } });
  const created = sandbox.addAccount({ id: account, apiKey });
  const address = await app.listen({ port: options.port, host: options.host }).catch(async (error: NodeJS.ErrnoException) => {
    await app.close();
    if (error.code === 'EADDRINUSE') throw new UsageError(`Invalid --port: ${options.port} is in use; choose another (0 picks a free one).`);
    throw error;
  });
  const url = new URL(address);
  if (url.hostname === '0.0.0.0' || url.hostname === '[::]') url.hostname = '127.0.0.1';
  const baseUrl = url.origin;

  profiles.set(SANDBOX_PROFILE, { ...saved, base_url: baseUrl, account: created.id, api_key: apiKey, header_prefix: 'pay', sandbox: true });
  if (profiles.defaultName() === undefined) profiles.setDefault(SANDBOX_PROFILE);
  daemon.writeState(dir, { pid: process.pid, base_url: baseUrl, account: created.id, db, started: new Date().toISOString() });
  printReady(f, { base_url: baseUrl, account: created.id, pid: process.pid }, false);

  await f.io.untilStopped();
  await app.close();
  daemon.clearState(dir, process.pid);
  if (f.io.human) f.io.info('Sandbox stopped.');
}

function printReady(f: Factory, ready: { base_url: string; account: string; pid: number }, already: boolean): void {
  if (f.io.json) return f.io.printJSON(ready);
  f.io.out(`${already ? 'Sandbox already running' : 'Sandbox ready'} at ${ready.base_url} · account ${ready.account} · pid ${ready.pid}`);
}
