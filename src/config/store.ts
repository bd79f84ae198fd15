import { chmodSync, mkdirSync, statSync } from 'node:fs';
import Conf from 'conf';
import { Profile } from './profile.js';

interface ConfigFile {
  default_profile?: string;
  profiles: Record<string, Profile>;
}

const FILE_MODE = 0o600;

/** Profiles on disk (conf), in a file only its owner can read. */
export class ProfileStore {
  private readonly conf: Conf<ConfigFile>;

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.conf = new Conf<ConfigFile>({
      cwd: dir,
      configName: 'config',
      projectName: 'pay',
      configFileMode: FILE_MODE,
      defaults: { profiles: {} },
    });
    this.repairMode();
  }

  get path(): string {
    return this.conf.path;
  }

  /** Keys live in this file: whatever made it wider, it goes back to 0600. */
  private repairMode(): void {
    try {
      if ((statSync(this.path).mode & 0o777) !== FILE_MODE) chmodSync(this.path, FILE_MODE);
    } catch {
      // Not written yet: conf creates it with FILE_MODE.
    }
  }

  names(): string[] {
    return Object.keys(this.conf.get('profiles')).sort();
  }

  get(name: string): Profile | undefined {
    return this.conf.get('profiles')[name];
  }

  set(name: string, profile: Profile): void {
    this.conf.set('profiles', { ...this.conf.get('profiles'), [name]: profile });
    this.repairMode();
  }

  remove(name: string): boolean {
    const profiles = { ...this.conf.get('profiles') };
    if (!(name in profiles)) return false;
    delete profiles[name];
    this.conf.set('profiles', profiles);
    if (this.defaultName() === name) this.conf.delete('default_profile');
    this.repairMode();
    return true;
  }

  defaultName(): string | undefined {
    return this.conf.get('default_profile');
  }

  setDefault(name: string): void {
    this.conf.set('default_profile', name);
    this.repairMode();
  }
}
