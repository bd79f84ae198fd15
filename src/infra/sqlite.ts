import { chmodSync, closeSync, openSync } from 'node:fs';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';

export type Row = Record<string, SQLInputValue>;

/**
 * node:sqlite behind a small surface, for the sandbox's store and `listen`'s spool alike:
 * a file only its owner can read (what is kept holds customers' details and key
 * hashes; WAL files inherit the mode), WAL, cached statements, and one transaction at a
 * time. Callers are synchronous, so a transaction never interleaves with another's.
 */
export class Sqlite {
  private readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  private depth = 0;
  private afterCommit: Array<() => void> = [];
  /**
   * Where a failed after-commit callback is told: stderr (the sandbox's log, sandbox.log
   * when detached), unless its owner says otherwise.
   */
  report: (error: unknown) => void = (error) => {
    process.stderr.write(`pay: work after a commit failed (what was committed stands): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  };

  constructor(readonly file: string) {
    if (file !== ':memory:') {
      closeSync(openSync(file, 'a', 0o600));
      chmodSync(file, 0o600);
    }
    this.db = new DatabaseSync(file);
    if (file !== ':memory:') this.db.exec('PRAGMA journal_mode = WAL');
    this.db.exec('PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000');
  }

  /** Runs SQL text as it is (schemas, pragmas): no parameters, no result. */
  exec(sql: string): void {
    this.db.exec(sql);
  }

  private statement(sql: string): StatementSync {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return stmt;
  }

  run(sql: string, ...params: SQLInputValue[]): { changes: number | bigint; lastInsertRowid: number | bigint } {
    return this.statement(sql).run(...params);
  }

  get<T = Row>(sql: string, ...params: SQLInputValue[]): T | undefined {
    return this.statement(sql).get(...params) as T | undefined;
  }

  all<T = Row>(sql: string, ...params: SQLInputValue[]): T[] {
    return this.statement(sql).all(...params) as T[];
  }

  /** Runs `fn` in a transaction (nested calls join the outer one); rolls back on throw. */
  transaction<T>(fn: () => T): T {
    if (this.depth > 0) {
      this.depth++;
      try {
        return fn();
      } finally {
        this.depth--;
      }
    }
    this.db.exec('BEGIN IMMEDIATE');
    this.depth = 1;
    let result: T;
    try {
      result = fn();
      this.db.exec('COMMIT');
    } catch (error) {
      this.db.exec('ROLLBACK');
      this.afterCommit = [];
      throw error;
    } finally {
      this.depth = 0;
    }
    const callbacks = this.afterCommit;
    this.afterCommit = [];
    // The work is committed: a failing push or wake-up must neither undo its answer nor stop the others.
    for (const callback of callbacks) {
      try {
        callback();
      } catch (error) {
        this.report(error);
      }
    }
    return result;
  }

  /** Work that must only happen once the current transaction has committed (delivery, pushes). */
  onCommit(callback: () => void): void {
    if (this.depth === 0) callback();
    else this.afterCommit.push(callback);
  }

  close(): void {
    this.statements.clear();
    this.db.close();
  }
}
