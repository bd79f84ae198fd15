import { readFileSync, rmSync } from 'node:fs';
import { writeFileAtomic } from '../infra/atomic-write.js';
import { sandboxStateFile } from './paths.js';

/** What a running sandbox leaves under the config dir, for stop, status and auto-start. */
export interface SandboxState {
  pid: number;
  base_url: string;
  account: string;
  db: string;
  /** The --host it listens on (base_url is loopback even for a wildcard); absent in records of older versions: the default. */
  host?: string | undefined;
  started: string;
  /** The process's start as the kernel counts it (processStartOf), to tell it from a later process given its pid. */
  proc_start?: string | undefined;
}

export function readState(dir: string): SandboxState | undefined {
  try {
    return JSON.parse(readFileSync(sandboxStateFile(dir), 'utf8')) as SandboxState;
  } catch {
    return undefined;
  }
}

/** Replaced whole (other commands read it while a sandbox starts), mode 0600. */
export function writeState(dir: string, state: SandboxState): void {
  writeFileAtomic(sandboxStateFile(dir), `${JSON.stringify(state, null, 2)}\n`);
}

export function clearState(dir: string, pid: number): void {
  if (readState(dir)?.pid === pid) rmSync(sandboxStateFile(dir), { force: true });
}
