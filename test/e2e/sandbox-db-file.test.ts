import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/sandbox/store/migrations.js';
import { baseEnv, runPay } from './harness.js';

const dirs: string[] = [];
function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'pay-dbfile-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  // A sandbox started on a file it should have refused would outlive the run.
  for (const dir of dirs) await runPay(['sandbox', 'stop'], { env: baseEnv(join(dir, 'config')) });
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('a database file this pay cannot use is refused, and left as it was', () => {
  it('one a newer pay wrote (a schema version beyond this one\'s migrations): exit 2 naming the file and both versions, in the foreground and detached', async () => {
    const dir = tempDir();
    const db = join(dir, 'newer.db');
    const newer = new DatabaseSync(db);
    newer.exec('PRAGMA journal_mode = WAL'); // as pay writes it
    for (const sql of MIGRATIONS) newer.exec(sql);
    // A later migration this pay does not know.
    newer.exec(`ALTER TABLE accounts ADD COLUMN from_the_future TEXT; PRAGMA user_version = ${MIGRATIONS.length + 1}`);
    newer.close();
    const before = readFileSync(db);
    const said = `✗ The database ${db} was written by a newer version of pay (schema ${MIGRATIONS.length + 1}; this version knows up to ${MIGRATIONS.length}): upgrade pay to use it, or start with another --db or --memory.`;
    for (const detach of [[], ['--detach']]) {
      const result = await runPay(['sandbox', 'start', '--port', '0', '--db', db, ...detach], { env: baseEnv(join(dir, 'config')), timeout: 20_000 });
      expect({ exit: result.exitCode, stderr: result.stderr }, detach.join(' ')).toEqual({ exit: 2, stderr: said });
    }
    expect(readFileSync(db).equals(before)).toBe(true);
    expect(existsSync(`${db}.lock`)).toBe(false);
  });

  it('a file that is not a SQLite database: exit 2 naming it, in the foreground and detached', async () => {
    const dir = tempDir();
    const db = join(dir, 'notes.txt');
    writeFileSync(db, 'my notes, not a database\n');
    const said = `✗ The file ${db} is not a SQLite database (or it is damaged): start with another --db or --memory.`;
    for (const detach of [[], ['--detach']]) {
      const result = await runPay(['sandbox', 'start', '--port', '0', '--db', db, ...detach], { env: baseEnv(join(dir, 'config')), timeout: 20_000 });
      expect({ exit: result.exitCode, stderr: result.stderr }, detach.join(' ')).toEqual({ exit: 2, stderr: said });
    }
    expect(readFileSync(db, 'utf8')).toBe('my notes, not a database\n');
    expect(existsSync(`${db}.lock`)).toBe(false);
  });
});
