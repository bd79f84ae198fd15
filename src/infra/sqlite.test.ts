import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Sqlite } from './sqlite.js';

it('runs every after-commit callback once committed, reporting one that throws instead of failing the transaction', () => {
  const db = new Sqlite(':memory:');
  try {
    db.exec('CREATE TABLE t (v INTEGER)');
    const reported: unknown[] = [];
    db.report = (error) => reported.push(error);
    const ran: string[] = [];
    const result = db.transaction(() => {
      db.run('INSERT INTO t (v) VALUES (1)');
      db.onCommit(() => ran.push('first'));
      db.onCommit(() => {
        throw new Error('a push failed');
      });
      db.onCommit(() => ran.push('third'));
      return 'answer';
    });
    expect(result).toBe('answer');
    expect(ran).toEqual(['first', 'third']);
    expect(reported).toEqual([new Error('a push failed')]);
    expect(db.get<{ n: number }>('SELECT count(*) AS n FROM t')!.n).toBe(1);
  } finally {
    db.close();
  }
});

describe('rows held back (hold)', () => {
  const table = { name: 't', columns: ['k', 'v'] };
  const rows = (db: Sqlite) => db.all<{ k: number; v: string }>('SELECT k, v FROM t ORDER BY k');
  /** Runs a test on a database holding the table t, closed after. */
  const withTable = async (test: (db: Sqlite) => unknown) => {
    const db = new Sqlite(':memory:');
    try {
      db.exec('CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)');
      await test(db);
    } finally {
      db.close();
    }
  };

  it('are seen by any later statement, written once with what replaced them while held, past one statement\'s rows', () =>
    withTable((db) => {
      db.transaction(() => {
        for (let k = 1; k <= 40; k++) db.hold(table, [k, `v${k}`], k);
        db.heldRow(table, 2)!.replace([2, 'replaced']);
        const third = db.heldRow(table, 3)!;
        expect(db.get<{ n: number }>('SELECT count(*) AS n FROM t')!.n).toBe(40);
        // Written: no longer held, so no longer to be replaced.
        expect(db.heldRow(table, 3)).toBeUndefined();
        expect(() => third.replace([3, 'late'])).toThrow('a held row replaced after it was written');
        db.hold(table, [41, 'last'], 41);
      });
      expect(rows(db)).toHaveLength(41);
      expect(rows(db).slice(0, 2)).toEqual([{ k: 1, v: 'v1' }, { k: 2, v: 'replaced' }]);
      expect(rows(db).at(-1)).toEqual({ k: 41, v: 'last' });
      // Outside a transaction: written at once.
      db.hold(table, [42, 'now']);
      expect(rows(db).at(-1)).toEqual({ k: 42, v: 'now' });
    }));

  it('are never written when their transaction throws, and a failed request of a group drops its own alone', () =>
    withTable(async (db) => {
      expect(() => db.transaction(() => {
        db.hold(table, [1, 'gone'], 1);
        throw new Error('roll back');
      })).toThrow('roll back');
      expect(db.heldRow(table, 1)).toBeUndefined();
      const kept = db.grouped(() => db.hold(table, [2, 'kept']));
      const failed = db.grouped(() => {
        db.hold(table, [3, 'gone']);
        throw new Error('this request fails');
      });
      // Its rows clash with a neighbour's when written, at the COMMIT: that request fails
      // as it would have alone (its work in memory undone, its after-commit work dropped);
      // its neighbours commit.
      const ran: string[] = [];
      const clashing = db.grouped(() => {
        db.hold(table, [2, 'clash']);
        db.onCommit(() => ran.push('clashing committed'));
        db.onRollback(() => ran.push('clashing undone'));
      });
      const after = db.grouped(() => {
        db.hold(table, [4, 'after']);
        db.onCommit(() => ran.push('after committed'));
      });
      await expect(kept).resolves.toBeUndefined();
      await expect(failed).rejects.toThrow('this request fails');
      await expect(clashing).rejects.toThrow(/UNIQUE/);
      await expect(after).resolves.toBeUndefined();
      expect(rows(db)).toEqual([{ k: 2, v: 'kept' }, { k: 4, v: 'after' }]);
      expect(ran).toEqual(['clashing undone', 'after committed']);
    }));

  it('of a request that runs no statement wait for its neighbours\', written outside the savepoint of the one whose statement writes them', () =>
    withTable(async (db) => {
      const first = db.grouped(() => db.hold(table, [1, 'first'], 1));
      const second = db.grouped(() => {
        // Held by a request that has finished: not this one's to replace.
        expect(db.heldRow(table, 1)).toBeUndefined();
        db.hold(table, [2, 'second'], 2);
        // A statement sees every row held so far, then this request fails.
        expect(db.get<{ n: number }>('SELECT count(*) AS n FROM t')!.n).toBe(2);
        throw new Error('the second request fails');
      });
      const third = db.grouped(() => db.hold(table, [3, 'third']));
      await expect(first).resolves.toBeUndefined();
      await expect(second).rejects.toThrow('the second request fails');
      await expect(third).resolves.toBeUndefined();
      expect(rows(db)).toEqual([{ k: 1, v: 'first' }, { k: 3, v: 'third' }]);
    }));
});

describe('a full disk (SQLite rolls the whole transaction back itself)', () => {
  it('fails the transaction and the group with its own error, ends nothing, and the next write succeeds once there is room', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pay-sqlite-full-'));
    const db = new Sqlite(join(dir, 'full.db'), { syncOffThread: true });
    try {
      db.exec('CREATE TABLE t (v TEXT)');
      // A file that may not grow: as a full disk, SQLITE_FULL, and SQLite rolls back on it.
      db.exec(`PRAGMA max_page_count = ${db.get<{ page_count: number }>('PRAGMA page_count')!.page_count + 2}`);
      const fill = () => {
        for (let i = 0; i < 50; i++) db.run('INSERT INTO t (v) VALUES (?)', 'x'.repeat(2000));
      };
      expect(() => db.transaction(fill)).toThrow('database or disk is full');
      await expect(db.grouped(fill)).rejects.toThrow('database or disk is full');
      db.exec('PRAGMA max_page_count = 1000000');
      await db.grouped(fill);
      expect(db.get<{ n: number }>('SELECT count(*) AS n FROM t')!.n).toBe(50);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
