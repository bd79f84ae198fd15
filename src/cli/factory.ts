import { configDir } from '../config/paths.js';
import type { ResolvedProfile } from '../config/resolve.js';
import type { ProfileStore } from '../config/store.js';
import type { Client } from '../client/client.js';
import type { IO } from './io/io.js';

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
  private resolved?: Promise<ResolvedProfile>;
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
    if (!this.store) {
      const { ProfileStore } = await import('../config/store.js');
      this.store = new ProfileStore(this.configDir);
    }
    return this.store;
  }

  /** The profile in force (flag > env > file); the sandbox profile's sandbox is started on demand. */
  profile(): Promise<ResolvedProfile> {
    this.resolved ??= this.resolveProfile();
    return this.resolved;
  }

  private async resolveProfile(): Promise<ResolvedProfile> {
    const { resolveProfile } = await import('../config/resolve.js');
    const store = await this.profiles();
    const resolve = () => resolveProfile({ profile: this.flags.profile }, this.env, () => store);
    const profile = resolve();
    if (!profile.sandbox) return profile;
    const { runningSandbox, startDetached, DEFAULT_PORT, SandboxStartError } = await import('../sandbox/daemon.js');
    if (await runningSandbox(this.configDir)) return profile;
    const port = profile.base_url ? new URL(profile.base_url).port || String(DEFAULT_PORT) : String(DEFAULT_PORT);
    this.io.info(`The sandbox is not running: starting it in the background on port ${port}…`);
    const start = (on: string) => this.io.spin('Starting the sandbox…', () => startDetached(this.configDir, ['--port', on], this.env));
    // Its port taken by another program, it takes any free one; the sandbox profile records where.
    const ready = await start(port).catch((error: unknown) => {
      if (!(error instanceof SandboxStartError && error.code === 'port_in_use')) throw error;
      this.io.info(`Port ${port} is in use: starting it on a free port instead…`);
      return start('0');
    });
    this.io.info(`Sandbox started at ${ready.base_url} (pid ${ready.pid}). Stop it with: pay sandbox stop`);
    return resolve();
  }

  client(): Promise<Client> {
    this.clientPromise ??= (async () => {
      const profile = await this.profile();
      const { Client } = await import('../client/client.js');
      return new Client({
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
