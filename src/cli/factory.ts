import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError, CredentialsError } from '../config/errors.js';
import { configDir } from '../config/paths.js';
import { type ResolvedProfile, resolveProfile } from '../config/resolve.js';
import { ProfileStore } from '../config/store.js';
import { readState } from '../config/sandbox-state.js';
import { sameProcessAlive } from '../infra/pid-lock.js';
import type { Client } from '../client/client.js';
import type { ReadyLine } from '../sandbox/daemon.js';
import type { IO } from './io/io.js';
import { refusedStart } from './errors.js';

export interface GlobalFlags {
  /** `--json`: every field (an empty list), or only those named. */
  json?: string[] | true | undefined;
  profile?: string | undefined;
  input: boolean;
  verbose: boolean;
  color: boolean;
}

/**
 * Lazily built dependencies of a command (gh's Factory): nothing expensive is loaded
 * until a command asks for it, so `--help` stays fast.
 */
export class Factory {
  private store?: ProfileStore;
  private resolved?: Promise<ResolvedProfile> | undefined;
  private running?: Promise<ResolvedProfile>;
  private clientPromise?: Promise<Client>;

  constructor(
    readonly io: IO,
    readonly env: NodeJS.ProcessEnv,
    private readonly globals: () => GlobalFlags,
  ) {}

  get flags(): GlobalFlags {
    return this.globals();
  }

  get configDir(): string {
    return configDir(this.env);
  }

  async profiles(): Promise<ProfileStore> {
    this.store ??= new ProfileStore(this.configDir);
    return this.store;
  }

  /**
   * The profile in force (flag > env > file), its sandbox started if it is the sandbox
   * profile's and not running: for commands that need the service up before anything
   * else (WebSocket tunnels, the sandbox's own commands). HTTP requests go through
   * client(), which starts it only when a request finds it down.
   */
  profile(): Promise<ResolvedProfile> {
    this.running ??= (async () => {
      const profile = await this.configured();
      if (!profile.sandbox) return profile;
      const { runningSandbox } = await import('../sandbox/daemon.js');
      const running = await runningSandbox(this.configDir);
      if (!running) return this.startSandbox(profile);
      // Read before another command's start wrote it (the key comes with the first start): read again.
      if (profile.api_key !== undefined) return profile;
      this.resolved = undefined;
      const reread = await this.configured();
      // A sandbox writes its profile before it says it runs: none now means it was removed since, with the only copy of its key.
      if (reread.api_key === undefined) {
        throw new CredentialsError(`The sandbox runs at ${running.base_url} (pid ${running.pid}), but its profile '${reread.name}' was removed, and its key with it. Stop it with: pay sandbox stop; the next command starts it again with a new profile.`);
      }
      return reread;
    })();
    return this.running;
  }

  /** The profile in force as configured: nothing checked or started. */
  private configured(): Promise<ResolvedProfile> {
    this.resolved ??= (async () => {
      const store = await this.profiles();
      return resolveProfile({ profile: this.flags.profile }, this.env, () => store);
    })();
    return this.resolved;
  }

  /** Starts the sandbox profile's sandbox (unless another command just did); the profile as it then is. */
  private async startSandbox(profile: ResolvedProfile): Promise<ResolvedProfile> {
    const { runningOrStarted } = await import('../sandbox/daemon.js');
    const outcome = await runningOrStarted(this.configDir, () => this.startInBackground(profile)).catch(refusedStart);
    if ('started' in outcome) this.io.info(`Sandbox started at ${outcome.started.base_url} (pid ${outcome.started.pid}). Stop it with: pay sandbox stop`);
    // `sandbox start` refreshed the profile (its key, if the database was new), this command's or another's.
    this.resolved = undefined;
    return this.configured();
  }

  /** Starts the sandbox in the background on its profile's port, or on a free one when another program holds it. */
  private async startInBackground(profile: ResolvedProfile): Promise<ReadyLine> {
    const { startDetached, DEFAULT_PORT, SandboxStartError } = await import('../sandbox/daemon.js');
    const port = profile.base_url ? new URL(profile.base_url).port || String(DEFAULT_PORT) : String(DEFAULT_PORT);
    // On the database it last ran on with --db, while its folder is there: its data and clock as they were.
    const db = profile.sandbox_db !== undefined && existsSync(dirname(profile.sandbox_db)) ? ['--db', profile.sandbox_db] : [];
    this.io.info(`The sandbox is not running: starting it in the background on port ${port}${db.length > 0 ? `, on ${db[1]}` : ''}…`);
    const start = (on: string) => this.io.spin('Starting the sandbox…', () => startDetached(this.configDir, ['--port', on, ...db], this.env));
    // Its port taken by another program, it takes any free one; the sandbox profile records
    // where. Not when PAY_BASE_URL names the port: requests would go there, with its key.
    return start(port).catch((error: unknown) => {
      if (!(error instanceof SandboxStartError && error.code === 'port_in_use')) throw error;
      if (this.env.PAY_BASE_URL) {
        throw new ConfigError(`Port ${port} is in use by another program, and PAY_BASE_URL says the sandbox runs at ${this.env.PAY_BASE_URL}: free the port, or unset PAY_BASE_URL and the sandbox takes a free one.`);
      }
      this.io.info(`Port ${port} is in use: starting it on a free port instead…`);
      return start('0');
    });
  }

  /**
   * Whether the sandbox recorded in the config dir still runs at `baseUrl`: its process is
   * alive and still the sandbox (file reads and a signal 0, no request). A port left by a
   * sandbox that stopped may now be another program's, which must never be sent the
   * sandbox's key.
   */
  private sandboxRunsAt(baseUrl: string): boolean {
    const state = readState(this.configDir);
    if (!state || !sameProcessAlive(state.pid, state.proc_start)) return false;
    try {
      return new URL(state.base_url).origin === new URL(baseUrl).origin;
    } catch {
      return false;
    }
  }

  client(): Promise<Client> {
    this.clientPromise ??= (async () => {
      // No health check first: a sandbox that is down is started when a request finds it
      // so. One never started has no address yet (a new user's first command), and one whose
      // process is gone left an address another program may hold now: start it first.
      const configured = await this.configured();
      const profile = configured.sandbox && !(configured.api_key !== undefined && configured.base_url && this.sandboxRunsAt(configured.base_url)) ? await this.profile() : configured;
      const { Client } = await import('../client/client.js');
      const started = (started: ResolvedProfile) => ({ baseUrl: started.base_url, account: started.account, apiKey: started.api_key });
      return new Client({
        startService: profile.sandbox ? async () => started(await this.profile()) : undefined,
        baseUrl: profile.base_url,
        account: profile.account,
        apiKey: profile.api_key,
        headerPrefix: profile.header_prefix,
        trace: this.flags.verbose ? (line) => this.io.trace(line) : undefined,
        userAgent: 'pay-cli',
      });
    })();
    return this.clientPromise;
  }
}
