import { expect, it } from 'vitest';
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
