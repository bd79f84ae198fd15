import { chmodSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type Conf from 'conf';
import type { Profile } from './profile.js';

interface ConfigFile {
  default_profile?: string;
  profiles: Record<string, Profile>;
}

const FILE_MODE = 0o600;
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
      throw new Error(`${this.path} is not valid JSON: fix it, or remove it and add the profiles again.`);
    }
  }

  /** conf, loaded on the first write (synchronously: conf has no top-level await). */
  private writer(): Conf<ConfigFile> {
    if (!this.conf) {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
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

  private write(change: (conf: Conf<ConfigFile>) => void): void {
    change(this.writer());
    this.repairMode();
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

  set(name: string, profile: Profile): void {
    this.write((conf) => conf.set('profiles', { ...this.read().profiles, [name]: profile }));
  }

  remove(name: string): boolean {
    const file = this.read();
    if (!(name in file.profiles)) return false;
    const { [name]: _removed, ...profiles } = file.profiles;
    this.write((conf) => {
      conf.set('profiles', profiles);
      if (file.default_profile === name) conf.delete('default_profile');
    });
    return true;
  }

  defaultName(): string | undefined {
    return this.read().default_profile;
  }

  setDefault(name: string): void {
    this.write((conf) => conf.set('default_profile', name));
  }
}
