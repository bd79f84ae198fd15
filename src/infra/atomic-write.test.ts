import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { writeFileAtomic } from './atomic-write.js';

it('a write that cannot be renamed into place throws and leaves no staged file behind', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pay-atomic-'));
  try {
    // A directory under the name: rename refuses to put a file over it.
    mkdirSync(join(dir, 'taken'));
    expect(() => writeFileAtomic(join(dir, 'taken'), 'text')).toThrow(/EISDIR/);
    expect(readdirSync(dir)).toEqual(['taken']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
