import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { releaseSyncs, syncs } from '../../test/support/held-fsync.js';
import { Sqlite } from './sqlite.js';

// The disk's timing is what a test cannot run: while `hold` is set, each fdatasync waits until the test lets it go.
vi.mock('node:fs', async (original) => (await import('../../test/support/held-fsync.js')).holdingFdatasync(original));
const nextTick = () => new Promise((resolve) => setImmediate(resolve));
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await nextTick();
}

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
  releaseSyncs();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What another connection sees: only what is committed. */
function committedNotes(of = file): string[] {
  const reader = new DatabaseSync(of, { readOnly: true });
  try {
    return (reader.prepare('SELECT text FROM notes ORDER BY rowid').all() as Array<{ text: string }>).map((r) => r.text);
  } finally {
    reader.close();
  }
}

describe('group commit', () => {
  it('commits the requests of one tick together, and a request that fails takes only its own work back', async () => {
    const ran: string[] = [];
    const undone: string[] = [];
    const first = db.grouped(() => {
      db.run('INSERT INTO notes VALUES (?)', 'first');
      db.onCommit(() => ran.push('first'));
      db.onRollback(() => undone.push('first'));
      return 1;
    });
    const failing = db.grouped(() => {
      db.run('INSERT INTO notes VALUES (?)', 'failing');
      db.onCommit(() => ran.push('failing'));
      db.onRollback(() => undone.push('failing: its note'));
      db.onRollback(() => undone.push('failing: after its note'));
      throw new Error('this request fails after writing');
    });
    // What it undoes in memory is undone at once, newest first; its neighbours' stays.
    expect(undone).toEqual(['failing: after its note', 'failing: its note']);
    const third = db.grouped(() => {
      db.run('INSERT INTO notes VALUES (?)', 'third');
      db.onCommit(() => ran.push('third'));
      db.onRollback(() => undone.push('third'));
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
    expect(undone).toEqual(['failing: after its note', 'failing: its note']);
  });

  it('undoes what every request of a group did in memory when the group\'s COMMIT fails, and rejects them all', async () => {
    // A deferred foreign key is checked at COMMIT: the one way a commit fails that a test can run.
    db.transaction(() => db.exec('CREATE TABLE parents (id INTEGER PRIMARY KEY); CREATE TABLE children (parent INTEGER REFERENCES parents(id) DEFERRABLE INITIALLY DEFERRED)'));
    const undone: string[] = [];
    const fine = db.grouped(() => {
      db.run('INSERT INTO notes VALUES (?)', 'fine');
      db.onRollback(() => undone.push('fine'));
    });
    const orphan = db.grouped(() => {
      db.run('INSERT INTO children VALUES (42)');
      db.onRollback(() => undone.push('orphan'));
    });
    await expect(fine).rejects.toThrow(/FOREIGN KEY/);
    await expect(orphan).rejects.toThrow(/FOREIGN KEY/);
    expect(undone).toEqual(['orphan', 'fine']);
    expect(committedNotes()).toEqual([]);
  });

  it('undoes, for a transaction that throws, what it did in memory; nothing for one that commits', () => {
    const undone: string[] = [];
    db.transaction(() => db.onRollback(() => undone.push('committed')));
    expect(() => db.transaction(() => {
      db.run('INSERT INTO notes VALUES (?)', 'rolled back');
      db.onRollback(() => undone.push('first'));
      db.transaction(() => db.onRollback(() => undone.push('nested')));
      throw new Error('fails');
    })).toThrow('fails');
    expect(undone).toEqual(['nested', 'first']);
    // Outside a transaction there is nothing to roll back: nothing is kept to run later.
    db.onRollback(() => undone.push('outside'));
    expect(() => db.transaction(() => {
      throw new Error('fails again');
    })).toThrow('fails again');
    expect(undone).toEqual(['nested', 'first']);
    expect(committedNotes()).toEqual([]);
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

  it('keeps a group open while the disk syncs the commit before it, commits it when that sync ends, and answers it after its own', async () => {
    const answered: string[] = [];
    const request = (name: string) => db.grouped(() => db.run('INSERT INTO notes VALUES (?)', name)).then(() => answered.push(name));

    syncs.hold = true;
    const first = request('first');
    await until(() => syncs.held.length === 1);
    expect(committedNotes()).toEqual(['first']);

    // Two requests in later ticks, while the first commit's sync runs: one group, still open.
    const second = request('second');
    await nextTick();
    const third = request('third');
    await nextTick();
    expect(db.inTransaction).toBe(true);
    expect(committedNotes()).toEqual(['first']);
    expect(answered).toEqual([]);

    // The sync ends: the first is answered, the group is committed, and its own sync starts.
    syncs.held.shift()!();
    await first;
    await until(() => syncs.held.length === 1);
    expect(committedNotes()).toEqual(['first', 'second', 'third']);
    expect(answered).toEqual(['first']);

    syncs.held.shift()!();
    await Promise.all([second, third]);
    expect(answered).toEqual(['first', 'second', 'third']);
  });

  it('moves a mark to where a commit left it once that commit is on disk, before its callbacks; reads under it leave the open group open', async () => {
    let position = 0;
    const mark = db.mark(() => position);
    const seen: number[] = [];
    const request = (name: string) =>
      db.grouped(() => {
        db.run('INSERT INTO notes VALUES (?)', name);
        position++;
        db.onCommit(() => seen.push(mark.durable));
      });

    syncs.hold = true;
    const first = request('first');
    await until(() => syncs.held.length === 1);
    expect(mark.durable).toBe(0);
    const second = request('second');
    // Inside the open group: what it wrote so far shows (a caller reads under its mark), and it stays open.
    expect(db.durableRead(() => db.all<{ text: string }>('SELECT text FROM notes').map((r) => r.text))).toEqual(['first', 'second']);
    expect(db.inTransaction).toBe(true);
    expect(committedNotes()).toEqual(['first']);

    syncs.held.shift()!();
    await first;
    expect(seen).toEqual([1]);
    await until(() => syncs.held.length === 1);
    expect(mark.durable).toBe(1);

    syncs.held.shift()!();
    await second;
    expect(seen).toEqual([1, 2]);
    // A transaction of its own (a clock step) moves it too.
    syncs.hold = false;
    db.transaction(() => {
      db.run('INSERT INTO notes VALUES (?)', 'own');
      position++;
    });
    expect(mark.durable).toBe(2);
    await db.durable();
    expect(mark.durable).toBe(3);
  });

  describe('under load', () => {
    /** A database whose groups wait up to `groupLingerMs` to grow, with a note written in a request of each. */
    function lingering(groupLingerMs: number) {
      const lingerFile = join(dir, 'linger.db');
      const lingerDb = new Sqlite(lingerFile, { syncOffThread: true, groupLingerMs });
      lingerDb.transaction(() => lingerDb.run('CREATE TABLE notes (text TEXT NOT NULL)'));
      const request = (name: string) => lingerDb.grouped(() => lingerDb.run('INSERT INTO notes VALUES (?)', name));
      return { lingerDb, request, committed: () => committedNotes(lingerFile) };
    }

    it('keeps a group smaller than the last one open, over ticks, until it is as large', async () => {
      const { lingerDb, request, committed } = lingering(60_000);
      try {
        await Promise.all(['a1', 'a2', 'a3'].map(request));
        expect(committed()).toEqual(['a1', 'a2', 'a3']);

        const b1 = request('b1');
        await nextTick();
        await nextTick();
        const b2 = request('b2');
        await nextTick();
        await nextTick();
        // Two of the three the last group had: still open, nothing answered.
        expect(lingerDb.inTransaction).toBe(true);
        expect(committed()).toEqual(['a1', 'a2', 'a3']);

        const b3 = request('b3');
        await Promise.all([b1, b2, b3]);
        expect(committed()).toEqual(['a1', 'a2', 'a3', 'b1', 'b2', 'b3']);
      } finally {
        lingerDb.close();
      }
    });

    it('commits a group that does not grow once it has waited groupLingerMs, and a lone request after it at the end of its tick', async () => {
      const { lingerDb, request, committed } = lingering(20);
      try {
        await Promise.all(['a1', 'a2', 'a3'].map(request));
        await request('b1');
        expect(committed()).toEqual(['a1', 'a2', 'a3', 'b1']);
        // The last group held one request: the next commits at the end of its tick.
        const c1 = request('c1');
        await nextTick();
        expect(lingerDb.inTransaction).toBe(false);
        expect(committed()).toEqual(['a1', 'a2', 'a3', 'b1', 'c1']);
        await c1;
      } finally {
        lingerDb.close();
      }
    });
  });
});
