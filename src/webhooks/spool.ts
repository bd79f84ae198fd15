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
   * Keeps each event for its targets, a burst in one transaction (durable before any of
   * it is forwarded); a resent event outside the log order leaves the cursor alone. An
   * event already waiting for a target is not doubled.
   */
  receive(batch: readonly Received[]): void {
    this.db.transaction(() => {
      let cursor: string | undefined;
      for (const { event, targets, inOrder } of batch) {
        const json = JSON.stringify(event);
        for (const target of targets) this.db.run('INSERT OR IGNORE INTO pending (event_id, target, event, next_attempt_at) VALUES (?, ?, ?, ?)', event.id, target, json, 0);
        if (inOrder) cursor = event.id;
      }
      if (cursor !== undefined) this.setState('cursor', cursor);
    });
  }

  /** Up to `limit` of the target's events due at nowMs, oldest first, leaving out those `busy` (in flight). */
  due(target: string, nowMs: number, limit: number, busy: ReadonlySet<string>): Pending[] {
    const rows = this.db.all<{ event_id: string; event: string; attempts: number; first_attempt_at: number | null }>(
      'SELECT event_id, event, attempts, first_attempt_at FROM pending WHERE target = ? AND next_attempt_at <= ? ORDER BY seq LIMIT ?',
      target, nowMs, limit + busy.size,
    );
    return rows
      .filter((row) => !busy.has(row.event_id))
      .slice(0, limit)
      .map((row) => ({ event: JSON.parse(row.event) as Event, target, attempts: row.attempts, firstAttemptAt: row.first_attempt_at }));
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

  /** Targets are done with these events, in one transaction: the ids of those no target still waits for. */
  done(finished: readonly Pending[]): string[] {
    return this.db.transaction(() =>
      finished.flatMap((pending) => {
        this.db.run('DELETE FROM pending WHERE event_id = ? AND target = ?', pending.event.id, pending.target);
        return this.db.get('SELECT 1 AS one FROM pending WHERE event_id = ?', pending.event.id) === undefined ? [pending.event.id] : [];
      }),
    );
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
