import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { Event } from '../domain/events.js';

/** One event waiting to reach one target. */
export interface Pending {
  event: Event;
  target: string;
  attempts: number;
  firstAttemptAt: number | null;
}

/** An event as the tunnel brought it, with the targets it goes to. */
export interface Received {
  event: Event;
  targets: string[];
  /** False for a resend, outside the log order: it does not move the cursor. */
  inOrder: boolean;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS pending (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id TEXT NOT NULL,
    target TEXT NOT NULL,
    event TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    first_attempt_at INTEGER,
    next_attempt_at INTEGER NOT NULL,
    UNIQUE (event_id, target)
  );
  CREATE INDEX IF NOT EXISTS pending_by_target ON pending (target, seq);
  CREATE INDEX IF NOT EXISTS pending_by_event ON pending (event_id);
`;

/**
 * `listen`'s local spool (node:sqlite under the config dir): every event received waits
 * here, per target, until its app took it or refused it for good, so neither the app's
 * restarts nor listen's own lose one. It also keeps the cursor: the newest event received
 * in log order. Whatever was received is either delivered or still here, so the next run
 * resumes after the cursor.
 */
export class Spool {
  private readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();

  constructor(readonly file: string) {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    // Events carry customers' details: the file is its owner's alone.
    closeSync(openSync(file, 'a', 0o600));
    this.db = new DatabaseSync(file);
    this.db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;');
    this.db.exec(SCHEMA);
  }

  private sql(text: string): StatementSync {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  private state(key: string): string | undefined {
    return (this.sql('SELECT value FROM state WHERE key = ?').get(key) as { value: string } | undefined)?.value;
  }

  private setState(key: string, value: string): void {
    this.sql('INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  /**
   * Claims the spool for this process. Returns the pid of another live `listen` that
   * holds it, if any: two would each forward the other's events.
   */
  claim(pid: number, alive: (pid: number) => boolean): number | undefined {
    const owner = Number(this.state('owner'));
    if (owner && owner !== pid && alive(owner)) return owner;
    this.setState('owner', String(pid));
    return undefined;
  }

  release(pid: number): void {
    if (Number(this.state('owner')) === pid) this.sql("DELETE FROM state WHERE key = 'owner'").run();
  }

  get cursor(): string | undefined {
    return this.state('cursor');
  }

  set cursor(id: string) {
    this.setState('cursor', id);
  }

  /**
   * Keeps each event for its targets, a burst in one transaction (durable before any of
   * it is forwarded); a resent event outside the log order leaves the cursor alone. An
   * event already waiting for a target is not doubled.
   */
  receive(batch: readonly Received[]): void {
    this.db.exec('BEGIN');
    try {
      const insert = this.sql('INSERT OR IGNORE INTO pending (event_id, target, event, next_attempt_at) VALUES (?, ?, ?, ?)');
      let cursor: string | undefined;
      for (const { event, targets, inOrder } of batch) {
        const json = JSON.stringify(event);
        for (const target of targets) insert.run(event.id, target, json, 0);
        if (inOrder) cursor = event.id;
      }
      if (cursor !== undefined) this.setState('cursor', cursor);
      this.db.exec('COMMIT');
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  /** Up to `limit` of the target's events due at nowMs, oldest first, leaving out those `busy` (in flight). */
  due(target: string, nowMs: number, limit: number, busy: ReadonlySet<string>): Pending[] {
    const rows = this
      .sql('SELECT event_id, event, attempts, first_attempt_at FROM pending WHERE target = ? AND next_attempt_at <= ? ORDER BY seq LIMIT ?')
      .all(target, nowMs, limit + busy.size) as Array<{ event_id: string; event: string; attempts: number; first_attempt_at: number | null }>;
    return rows
      .filter((row) => !busy.has(row.event_id))
      .slice(0, limit)
      .map((row) => ({ event: JSON.parse(row.event) as Event, target, attempts: row.attempts, firstAttemptAt: row.first_attempt_at }));
  }

  /** When the target's next event is due, if it has any. */
  nextDue(target: string): number | undefined {
    return (this.sql('SELECT min(next_attempt_at) AS next FROM pending WHERE target = ?').get(target) as { next: number | null }).next ?? undefined;
  }

  /** An attempt failed; try again at `retryAt`. */
  retry(pending: Pending, attemptedAt: number, retryAt: number): void {
    this
      .sql('UPDATE pending SET attempts = attempts + 1, first_attempt_at = coalesce(first_attempt_at, ?), next_attempt_at = ? WHERE event_id = ? AND target = ?')
      .run(attemptedAt, retryAt, pending.event.id, pending.target);
  }

  /** Targets are done with these events, in one transaction: the ids of those no target still waits for. */
  done(finished: readonly Pending[]): string[] {
    const settled: string[] = [];
    this.db.exec('BEGIN');
    try {
      for (const pending of finished) {
        this.sql('DELETE FROM pending WHERE event_id = ? AND target = ?').run(pending.event.id, pending.target);
        if (this.sql('SELECT 1 FROM pending WHERE event_id = ?').get(pending.event.id) === undefined) settled.push(pending.event.id);
      }
      this.db.exec('COMMIT');
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
    return settled;
  }

  /** Events waiting, for one target or all. */
  count(target?: string): number {
    const row = (target === undefined
      ? this.sql('SELECT count(DISTINCT event_id) AS n FROM pending').get()
      : this.sql('SELECT count(*) AS n FROM pending WHERE target = ?').get(target)) as { n: number };
    return row.n;
  }

  close(): void {
    this.statements.clear();
    this.db.close();
  }
}
