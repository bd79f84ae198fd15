import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Event } from '../domain/events.js';
import { Sqlite } from '../infra/sqlite.js';

/** One event waiting to reach one target. */
export interface Pending {
  event: Event;
  target: string;
  attempts: number;
  firstAttemptAt: number | null;
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
  private readonly db: Sqlite;

  constructor(readonly file: string) {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    this.db = new Sqlite(file);
    this.db.exec(SCHEMA);
  }

  private state(key: string): string | undefined {
    return this.db.get<{ value: string }>('SELECT value FROM state WHERE key = ?', key)?.value;
  }

  private setState(key: string, value: string): void {
    this.db.run('INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', key, value);
  }

  get cursor(): string | undefined {
    return this.state('cursor');
  }

  set cursor(id: string) {
    this.setState('cursor', id);
  }

  /**
   * Keeps the event for each target; a resent event outside the log order leaves the
   * cursor alone. An event already waiting for a target is not doubled.
   */
  receive(event: Event, targets: readonly string[], options: { inOrder: boolean }): void {
    const json = JSON.stringify(event);
    this.db.transaction(() => {
      for (const target of targets) this.db.run('INSERT OR IGNORE INTO pending (event_id, target, event, next_attempt_at) VALUES (?, ?, ?, ?)', event.id, target, json, 0);
      if (options.inOrder) this.setState('cursor', event.id);
    });
  }

  /** The oldest event due for the target at nowMs. */
  next(target: string, nowMs: number): Pending | undefined {
    const row = this.db.get<{ event: string; target: string; attempts: number; first_attempt_at: number | null }>(
      'SELECT event, target, attempts, first_attempt_at FROM pending WHERE target = ? AND next_attempt_at <= ? ORDER BY seq LIMIT 1',
      target, nowMs,
    );
    return row && { event: JSON.parse(row.event) as Event, target: row.target, attempts: row.attempts, firstAttemptAt: row.first_attempt_at };
  }

  /** When the target's next event is due, if it has any. */
  nextDue(target: string): number | undefined {
    return this.db.get<{ next: number | null }>('SELECT min(next_attempt_at) AS next FROM pending WHERE target = ?', target)?.next ?? undefined;
  }

  /** An attempt failed; try again at `retryAt`. */
  retry(pending: Pending, attemptedAt: number, retryAt: number): void {
    this.db.run(
      'UPDATE pending SET attempts = attempts + 1, first_attempt_at = coalesce(first_attempt_at, ?), next_attempt_at = ? WHERE event_id = ? AND target = ?',
      attemptedAt, retryAt, pending.event.id, pending.target,
    );
  }

  /** The target is done with the event; true when no target still waits for it. */
  done(pending: Pending): boolean {
    this.db.run('DELETE FROM pending WHERE event_id = ? AND target = ?', pending.event.id, pending.target);
    return this.db.get('SELECT 1 AS one FROM pending WHERE event_id = ?', pending.event.id) === undefined;
  }

  /** Events waiting, for one target or all. */
  count(target?: string): number {
    const row = target === undefined
      ? this.db.get<{ n: number }>('SELECT count(DISTINCT event_id) AS n FROM pending')
      : this.db.get<{ n: number }>('SELECT count(*) AS n FROM pending WHERE target = ?', target);
    return row!.n;
  }

  close(): void {
    this.db.close();
  }
}
