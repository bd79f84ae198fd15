import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Sqlite } from './sqlite.js';

let dir: string;
let file: string;
let db: Sqlite;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pay-db-'));
  file = join(dir, 'test.db');
  db = new Sqlite(file, { syncOffThread: true });
  db.transaction(() => db.run('CREATE TABLE notes (text TEXT NOT NULL)'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What another connection sees: only what is committed. */
function committedNotes(): string[] {
  const reader = new DatabaseSync(file, { readOnly: true });
  try {
    return (reader.prepare('SELECT text FROM notes ORDER BY rowid').all() as Array<{ text: string }>).map((r) => r.text);
  } finally {
    reader.close();
  }
}

describe('group commit', () => {
  it('commits the requests of one tick together, and a request that fails takes only its own work back', async () => {
    const ran: string[] = [];
    const first = db.grouped(() => {
      db.run('INSERT INTO notes VALUES (?)', 'first');
      db.onCommit(() => ran.push('first'));
      return 1;
    });
    const failing = db.grouped(() => {
      db.run('INSERT INTO notes VALUES (?)', 'failing');
      db.onCommit(() => ran.push('failing'));
      throw new Error('this request fails after writing');
    });
    const third = db.grouped(() => {
      db.run('INSERT INTO notes VALUES (?)', 'third');
      db.onCommit(() => ran.push('third'));
      return 3;
    });
    // One transaction still open: nothing is committed, nothing has been answered.
    expect(committedNotes()).toEqual([]);
    expect(ran).toEqual([]);

    await expect(first).resolves.toBe(1);
    await expect(failing).rejects.toThrow('this request fails after writing');
    await expect(third).resolves.toBe(3);
    expect(committedNotes()).toEqual(['first', 'third']);
    expect(ran).toEqual(['first', 'third']);
  });

  it('answers a request only once its commit is on disk, with its neighbours in one commit', async () => {
    const answered: number[] = [];
    const requests = [1, 2, 3].map((n) =>
      db.grouped(() => db.run('INSERT INTO notes VALUES (?)', `note ${n}`)).then(() => {
        answered.push(n);
        return committedNotes().length;
      }),
    );
    // Each saw all three committed when it was answered.
    expect(await Promise.all(requests)).toEqual([3, 3, 3]);
    expect(answered).toEqual([1, 2, 3]);
  });

  it('commits an open group before work outside it touches the database', async () => {
    const grouped = db.grouped(() => db.run('INSERT INTO notes VALUES (?)', 'grouped'));
    // A transaction of its own (a clock step, a delivery) never joins the group's.
    db.transaction(() => db.run('INSERT INTO notes VALUES (?)', 'own'));
    expect(committedNotes()).toEqual(['grouped', 'own']);
    await grouped;
  });

  it('runs a read outside any transaction when no group is open, and answers it after what it read is durable', async () => {
    db.transaction(() => db.run('INSERT INTO notes VALUES (?)', 'written'));
    await expect(db.grouped(() => db.all<{ text: string }>('SELECT text FROM notes').map((r) => r.text), false)).resolves.toEqual(['written']);
    await expect(db.grouped(() => {
      throw new Error('not found');
    }, false)).rejects.toThrow('not found');
  });
});
