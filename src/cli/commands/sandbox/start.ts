import { existsSync, realpathSync, statSync } from 'node:fs';
import { type AddressInfo, isIP } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { AccountCreate, ClockTo, clockTarget } from '../../../domain/test-helpers.js';
import { SANDBOX_PROFILE } from '../../../config/profile.js';
import { sandboxDbFile } from '../../../config/paths.js';
import { ConflictError, PortInUseError, refusedStart, UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { defineCommand, flag, type OptionsOf } from '../../command.js';

const DEFAULT_PORT = 12111;
const DEFAULT_HOST = '127.0.0.1';

const flags = {
  port: flag.int('--port <n>', 'Port to listen on; 0 picks a free one', { default: DEFAULT_PORT }),
  host: flag.string('--host <host>', 'Address to listen on; anything but loopback exposes every account (a warning says what)', { default: DEFAULT_HOST }),
  db: flag.string('--db <file>', 'SQLite database file (default: sandbox.db in the config dir)'),
  memory: flag.bool('--memory', 'Keep everything in memory; nothing survives a stop'),
  clock: flag.string('--clock <date>', 'Start new accounts\' test clocks at this date (YYYY-MM-DD) or date-time, for reproducible runs'),
  rateLimit: flag.string('--rate-limit <n/s>', 'Answer 429 with Retry-After beyond N API requests a second per account (default: no limit)'),
  detach: flag.bool('--detach', 'Run in the background and return once it accepts requests'),
};
export type StartOptions = OptionsOf<Record<never, never>, typeof flags>;

export const start = defineCommand({
  name: 'start',
  description: 'Start the local sandbox service (it becomes the `sandbox` profile)',
  flags,
  examples: [
    'pay sandbox start                    # in the foreground; Ctrl-C stops it',
    'pay sandbox start --detach --json    # {"base_url", "account", "pid"}',
    'pay sandbox start --port 0 --memory --clock 2030-01-01',
    'pay sandbox start --rate-limit 5/s   # 429 with Retry-After beyond 5 requests a second per account',
    'PAY_SANDBOX_RETRY_SCALE=0.001 pay sandbox start   # webhook retries after 1 ms, 5 ms, 30 ms… (tests)',
  ],
  fields: ['base_url', 'listening', 'account', 'pid'],
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

/** `--rate-limit 5/s`: requests a second per account. */
function rateLimitOf(flag: string | undefined): number | undefined {
  if (flag === undefined) return undefined;
  const match = /^(\d{1,6})\/s$/.exec(flag.trim());
  const perSecond = Number(match?.[1]);
  if (!match || perSecond < 1) throw new UsageError(`Invalid --rate-limit: must be a number of requests a second per account, like 5/s, got '${flag}'.`);
  return perSecond;
}

function checkOptions(options: StartOptions): string | undefined {
  if (options.port < 0 || options.port > 65_535) throw new UsageError('Invalid --port: must be from 0 to 65535.');
  // An IP address or a host name; an empty one would listen on every interface.
  if (isIP(options.host) === 0 && !/^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/.test(options.host)) {
    throw new UsageError(`Invalid --host '${options.host}': must be an IP address or a host name, e.g. 127.0.0.1 or localhost.`);
  }
  if (options.memory && options.db) throw new UsageError('--db and --memory cannot be used together: choose one.');
  if (options.db !== undefined && !existsSync(dirname(resolve(options.db)))) {
    throw new UsageError(`Invalid --db: its folder ${dirname(resolve(options.db))} does not exist.`);
  }
  if (options.db !== undefined && statSync(resolve(options.db), { throwIfNoEntry: false })?.isDirectory()) {
    throw new UsageError(`Invalid --db: ${resolve(options.db)} is a folder; name a file, e.g. ${join(resolve(options.db), 'sandbox.db')}.`);
  }
  if (options.clock === undefined) return undefined;
  const checked = ClockTo.safeParse(options.clock);
  if (!checked.success) throw new UsageError(`Invalid --clock: ${checked.error.issues[0]!.message}, got '${options.clock}'.`);
  return clockTarget({ to: options.clock }, '');
}

/**
 * CI's own account and key, held to the rule of an account added through the API: kept
 * in the sandbox profile as they are, a bad one would break every command after.
 */
function checkEnvironment(env: NodeJS.ProcessEnv): void {
  const checked = AccountCreate.safeParse({ account: env.PAY_SANDBOX_ACCOUNT || undefined, api_key: env.PAY_SANDBOX_API_KEY || undefined });
  if (checked.success) return;
  const issue = checked.error.issues[0]!;
  // The key is a secret: never echoed.
  const named = issue.path[0] === 'account' ? `PAY_SANDBOX_ACCOUNT '${env.PAY_SANDBOX_ACCOUNT}'` : 'PAY_SANDBOX_API_KEY';
  throw new UsageError(`Invalid ${named}: ${issue.message}.`);
}

export async function run(options: StartOptions, f: Factory): Promise<void> {
  const clock = checkOptions(options);
  checkEnvironment(f.env);
  const rateLimit = rateLimitOf(options.rateLimit);
  const scale = retryScale(f.env);
  const daemon = await import('../../../sandbox/daemon.js');
  const dir = f.configDir;
  const running = await daemon.runningSandbox(dir);
  if (running) return alreadyRunning(f, options, running);
  if (options.detach) {
    const args = ['--port', String(options.port), '--host', options.host];
    if (options.memory) args.push('--memory');
    if (options.db) args.push('--db', options.db);
    if (options.clock) args.push('--clock', options.clock);
    if (options.rateLimit) args.push('--rate-limit', options.rateLimit);
    // In turn with commands starting it on demand, and other scripts' `start --detach`: one of them starts it.
    const outcome = await daemon.runningOrStarted(dir, () => daemon.startDetached(dir, args, f.env)).catch(refusedStart);
    if ('running' in outcome) return alreadyRunning(f, options, outcome.running);
    // Its warnings (an exposed address, a --clock kept from an account), as it gave them.
    const { said, ...ready } = outcome.started;
    for (const line of said) f.io.info(line);
    printReady(f, ready, false);
    return;
  }

  const profiles = await f.profiles();
  const saved = profiles.get(SANDBOX_PROFILE);
  const { newApiKey } = await import('../../../sandbox/store/accounts.js');
  // CI brings its own account and key (never printed); otherwise the profile's, made once.
  const account = f.env.PAY_SANDBOX_ACCOUNT || saved?.account;
  const apiKey = f.env.PAY_SANDBOX_API_KEY || saved?.api_key || newApiKey();
  // Another account (PAY_SANDBOX_ACCOUNT) leaves the old one's listen identity behind, before anything starts.
  const { keptListenIdentity } = await import('../../../webhooks/identity.js');
  const kept = account === undefined ? {} : await keptListenIdentity(profiles.dir, SANDBOX_PROFILE, saved, account);

  // A long-running server: V8 would otherwise double its young generation under load and
  // keep it, and let its old generation grow to ~2.5× what is live before collecting it
  // (RSS up ~60 MB after 100,000 intents for nothing live: the heap after a full GC is as
  // at start). Growing it by half at most costs no measurable CPU under the write load.
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString('--semi-space-growth-factor=1 --heap-growing-percent=50');
  const { buildServer, listen } = await import('../../../sandbox/server.js');
  const db = options.memory ? ':memory:' : resolve(options.db ?? sandboxDbFile(dir));
  const { DatabaseUnusableError } = await import('../../../sandbox/store/db.js');
  const server = await buildServer({ db, clock, rateLimit, headerPrefix: 'pay', webhooks: { retryScale: scale } }).catch((error: unknown) => {
    // The file is the user's to change, as a --db whose folder is missing.
    throw error instanceof DatabaseUnusableError ? new UsageError(error.message) : error;
  });
  const { app, sandbox } = server;
  const created = sandbox.addAccount({ id: account, apiKey });
  // An account the database has keeps its clock (restarts keep everything): --clock is not dropped in silence.
  const now = sandbox.clock.now(created.id);
  if (clock !== undefined && now !== clock) {
    f.io.warn(`--clock ${options.clock} starts new accounts' clocks only: ${created.id} keeps its own, at ${now} (pay sandbox reset --yes erases its objects and starts it again at ${clock}).`);
  }
  const address = await listen(server, { port: options.port, host: options.host }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EADDRINUSE') throw new PortInUseError(options.port);
    if (error.code === 'ENOTFOUND' || error.code === 'EADDRNOTAVAIL' || error.code === 'EAI_AGAIN') {
      throw new UsageError(`Invalid --host '${options.host}': no address of this machine (${error.code}); e.g. 127.0.0.1, or 0.0.0.0 for every interface.`);
    }
    throw error;
  });
  const bound = app.server.address() as AddressInfo;
  const actual = bound.family === 'IPv6' ? `[${bound.address}]:${bound.port}` : `${bound.address}:${bound.port}`;
  warnIfExposed(f, actual);
  // Clients on this machine reach a wildcard address through loopback; the ready line then also names the address.
  const wildcard = isWildcard(bound.address);
  const listening = wildcard ? actual : undefined;
  const baseUrl = wildcard ? `http://127.0.0.1:${bound.port}` : new URL(address).origin;

  // A file of the user's own is where a start on demand (after a stop or a crash) resumes it, its data and its clock.
  const ownDb = options.db === undefined ? {} : { sandbox_db: resolve(options.db) };
  await profiles.set(SANDBOX_PROFILE, { base_url: baseUrl, account: created.id, api_key: apiKey, header_prefix: 'pay', sandbox: true, ...kept, ...ownDb }, 'if-none');
  // The accounts added to it (pay sandbox accounts add) are reached where it listens now:
  // left at its old port, their keys would go to whichever program took that port since.
  for (const name of profiles.names()) {
    const saved = profiles.get(name);
    if (name !== SANDBOX_PROFILE && saved?.sandbox === true && saved.base_url !== baseUrl) await profiles.update(name, (profile) => ({ ...profile, base_url: baseUrl }));
  }
  daemon.writeState(dir, { pid: process.pid, base_url: baseUrl, account: created.id, db, host: options.host, started: new Date().toISOString(), proc_start: daemon.processStartOf(process.pid) });
  printReady(f, { base_url: baseUrl, ...(listening && { listening }), account: created.id, pid: process.pid }, false);
  // Started in the background, its starter may be gone (killed) before reading that line: serving goes on.
  f.io.doneWithStdout();

  await f.io.untilStopped();
  await app.close();
  daemon.clearState(dir, process.pid);
  if (f.io.human) f.io.info('Sandbox stopped.');
}

/** The sandbox running is this start's when nothing asked for differs from it: a script's `start --detach` is then a no-op. */
function alreadyRunning(f: Factory, options: StartOptions, running: { base_url: string; account: string; pid: number; db: string; host?: string | undefined }): void {
  const differing = differingSettings(options, running);
  if (differing.length > 0 || !options.detach) {
    const why = differing.length > 0 ? `, started otherwise: ${differing.join(', ')} cannot apply to it` : '';
    throw new ConflictError(`A sandbox is already running at ${running.base_url} (pid ${running.pid})${why}. Stop it first with: pay sandbox stop`);
  }
  // Its ready line, as it gave it: one exposed on every interface still says so.
  const port = new URL(running.base_url).port;
  const host = running.host ?? DEFAULT_HOST;
  const listening = isWildcard(host) ? (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`) : undefined;
  printReady(f, { base_url: running.base_url, ...(listening && { listening }), account: running.account, pid: running.pid }, true);
}

/** The flags given that the running sandbox does not match (its clock and rate limit are its own). */
function differingSettings(options: StartOptions, running: { base_url: string; db: string; host?: string | undefined }): string[] {
  const port = Number(new URL(running.base_url).port);
  return [
    options.port !== DEFAULT_PORT && options.port !== 0 && options.port !== port ? `--port ${options.port}` : '',
    options.host !== DEFAULT_HOST && options.host !== (running.host ?? DEFAULT_HOST) ? `--host ${options.host}` : '',
    options.memory && running.db !== ':memory:' ? '--memory' : '',
    options.db !== undefined && fileOf(options.db) !== fileOf(running.db) ? `--db ${options.db}` : '',
    options.clock !== undefined ? '--clock' : '',
    options.rateLimit !== undefined ? '--rate-limit' : '',
  ].filter((setting) => setting !== '');
}

/** The file a path names, through symbolic links (the sandbox works on that file), or the path resolved while there is none. */
function fileOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function printReady(f: Factory, ready: { base_url: string; listening?: string | undefined; account: string; pid: number }, already: boolean): void {
  if (f.io.json) return f.io.printJSON(ready);
  const where = ready.listening === undefined ? '' : ` (listening on ${ready.listening}, every interface)`;
  f.io.out(`${already ? 'Sandbox already running' : 'Sandbox ready'} at ${ready.base_url}${where} · account ${ready.account} · pid ${ready.pid}`);
}

const isWildcard = (address: string) => address === '0.0.0.0' || address === '::';
const isLoopback = (host: string) => host === 'localhost' || host === '::1' || /^(::ffff:)?127\./.test(host);

/** A sandbox other machines can reach says what it exposes, each time it starts. */
function warnIfExposed(f: Factory, listening: string): void {
  const host = listening.slice(0, listening.lastIndexOf(':')).replace(/^\[|\]$/g, '');
  if (isLoopback(host)) return;
  const every = host === '0.0.0.0' || host === '::' ? ' (every network interface)' : '';
  f.io.warn(
    `The sandbox listens on ${listening}${every}, not only on this machine. Whoever reaches it there can use the API ` +
      'with any account\'s key (every account\'s customers, payment methods, intents, subscriptions and events), open the ' +
      'hosted checkout and payment-link pages (their URLs need no key), and connect listen tunnels and terminal readers; ' +
      'it speaks plain HTTP, so keys cross the network in clear. Use --host 127.0.0.1 unless you mean this.',
  );
}
