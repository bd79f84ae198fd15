import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { Checkpointer } from './sqlite-checkpointer.js';

it('a checkpoint that fails (a full disk, a damaged file) is reported, and neither ends the process nor holds up close', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pay-checkpointer-'));
  const file = join(dir, 'damaged.db');
  // The worker's connection fails on its first statement, as a checkpoint on a full disk fails in it.
  writeFileSync(file, 'not a database\n');
  const reported: unknown[] = [];
  const checkpointer = new Checkpointer(file, () => undefined, (error) => reported.push(error));
  try {
    checkpointer.committed();
    await expect.poll(() => reported.length).toBe(1);
    expect(String(reported[0])).toMatch(/checkpoint.*file is not a database/);
    // A commit later tries again.
    await expect.poll(() => {
      checkpointer.committed();
      return reported.length;
    }).toBe(2);
  } finally {
    checkpointer.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
