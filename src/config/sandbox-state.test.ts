import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sandboxStateFile } from './paths.js';
import { readState, type SandboxState, writeState } from './sandbox-state.js';

const dirs: string[] = [];
function configDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pay-state-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const state = (pid: number): SandboxState => ({ pid, base_url: 'http://127.0.0.1:12111', account: 'acct_1', db: '/tmp/sandbox.db', started: '2026-01-01T00:00:00.000Z' });

describe('sandbox state', () => {
  it('replaces the file whole (a new file renamed over the old, never the old one rewritten in place), mode 0600, nothing left beside it', () => {
    const dir = configDir();
    writeState(dir, state(1));
    const file = sandboxStateFile(dir);
    // A file another hand made wider: the next write still leaves one only its owner reads.
    chmodSync(file, 0o644);
    const before = statSync(file).ino;
    writeState(dir, state(2));
    // A reader that opened the old file reads it whole; one that opens the name now reads the new one whole.
    expect(statSync(file).ino).not.toBe(before);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readState(dir)).toEqual(state(2));
    expect(readdirSync(dir)).toEqual(['sandbox.json']);
  });
});
