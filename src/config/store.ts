import { chmodSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type Conf from 'conf';
import { acquireLockInTurn } from '../infra/pid-lock.js';
import { ConfigError } from './errors.js';
import type { Profile } from './profile.js';

interface ConfigFile {
  default_profile?: string;
  profiles: Record<string, Profile>;
}

const FILE_MODE = 0o600;
/** A write holds the file's lock for a moment: a holder this long is stuck (stopped at a shell's Ctrl-Z). */
const WRITE_WAIT_MS = 30_000;
const require = createRequire(import.meta.url);

/**
 * Profiles on disk, in a file only its owner can read. Reads parse the file directly;
 * conf (atomic writes, file mode) is loaded only to write, since it and its ajv and
 * semver cost more start-up than the rest of a read-only command.
 */
export class ProfileStore {
  readonly path: string;
  private conf?: Conf<ConfigFile>;

  constructor(readonly dir: string) {
    this.path = join(dir, 'config.json');
  }

  private read(): ConfigFile {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
      throw error;
    }
    this.repairMode();
    try {
      const file = JSON.parse(text) as Partial<ConfigFile>;
      return { ...file, profiles: file.profiles ?? {} };
    } catch {
      throw new ConfigError(`${this.path} is not valid JSON: fix it, or remove it and add the profiles again.`);
    }
  }

  /** conf, loaded on the first write (synchronously: conf has no top-level await), in the folder write() made. */
  private writer(): Conf<ConfigFile> {
    if (!this.conf) {
      const { default: ConfStore } = require('conf') as typeof import('conf');
      this.conf = new ConfStore<ConfigFile>({
        cwd: this.dir,
        configName: 'config',
        projectName: 'pay',
        configFileMode: FILE_MODE,
        defaults: { profiles: {} },
      });
    }
    return this.conf;
  }

  /**
   * Changes the file from what it holds under its lock: pay processes writing at once
   * (profiles added by parallel CI jobs, a sandbox starting while a listen saves its
   * secret) would otherwise each write back what they read, and all but the last change
   * would be lost. Reads need no lock: conf replaces the file whole (a rename).
   */
  private async write(change: (file: ConfigFile) => ConfigFile): Promise<void> {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const release = await acquireLockInTurn(`${this.path}.lock`, WRITE_WAIT_MS);
    try {
      this.writer().store = change(this.read());
      this.repairMode();
    } finally {
      await release();
    }
  }

  /** Keys live in this file: whatever made it wider, it goes back to 0600. */
  private repairMode(): void {
    if ((statSync(this.path).mode & 0o777) !== FILE_MODE) chmodSync(this.path, FILE_MODE);
  }

  names(): string[] {
    return Object.keys(this.read().profiles).sort();
  }

  get(name: string): Profile | undefined {
    return this.read().profiles[name];
  }

  /** Saves the profile; `makeDefault: 'if-none'` makes it the default unless another is. */
  set(name: string, profile: Profile, makeDefault: boolean | 'if-none' = false): Promise<void> {
    return this.write((file) => ({
      ...file,
      profiles: { ...file.profiles, [name]: profile },
      ...((makeDefault === true || (makeDefault === 'if-none' && file.default_profile === undefined)) && { default_profile: name }),
    }));
  }

  /** Changes a saved profile as it is now (false if there is none), keeping what other writers saved meanwhile. */
  async update(name: string, change: (profile: Profile) => Profile): Promise<boolean> {
    let found = false;
    await this.write((file) => {
      const saved = file.profiles[name];
      found = saved !== undefined;
      return saved === undefined ? file : { ...file, profiles: { ...file.profiles, [name]: change(saved) } };
    });
    return found;
  }

  async remove(name: string): Promise<boolean> {
    let found = false;
    await this.write((file) => {
      const { [name]: removed, ...profiles } = file.profiles;
      found = removed !== undefined;
      const { default_profile, ...rest } = file;
      return { ...rest, profiles, ...(default_profile !== undefined && default_profile !== name && { default_profile }) };
    });
    return found;
  }

  defaultName(): string | undefined {
    return this.read().default_profile;
  }

  setDefault(name: string): Promise<void> {
    return this.write((file) => ({ ...file, default_profile: name }));
  }
}
