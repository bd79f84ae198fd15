import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Event } from '../domain/events.js';
import { Sqlite } from '../infra/sqlite.js';

/** One event waiting to reach one target: a row of the spool, mirrored as it changes. */
export interface Pending {
  /**
   * Its place in the spool: a target gets its events in this order. 0 while it is not
   * spooled (the service's log still holds it after the spool's cursor).
   */
  seq: number;
  event: Event;
  /** The event as it is sent (and kept): serialised once. */
  payload: string;
  target: string;
  attempts: number;
  firstAttemptAt: number | null;
  nextAttemptAt: number;
}

/** An event as the tunnel brought it, with the targets it goes to. */
export interface Received {
  event: Event;
  /** The event serialised, once: what is kept, sent and printed. */
  payload: string;
  targets: string[];
  /** False for a resend, outside the log order: it does not move the cursor. */
  inOrder: boolean;
}

/** The delivery of a received event to one of its targets, before any attempt and not yet spooled. */
export const pendingOf = ({ event, payload }: Received, target: string): Pending => ({ seq: 0, event, payload, target, attempts: 0, firstAttemptAt: null, nextAttemptAt: 0 });

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
  -- UNIQUE (event_id, target) finds an event's rows: a second index only cost every write.
  DROP INDEX IF EXISTS pending_by_event;
`;

interface PendingRow {
  seq: number;
  event: string;
  attempts: number;
  first_attempt_at: number | null;
  next_attempt_at: number;
}

/**
 * `listen`'s local spool (node:sqlite under the config dir): events the app has not taken
 * wait here, per target, until it took them or refused them for good, so neither the app's
 * restarts nor listen's own lose one. It also keeps the cursor: the newest event in log
 * order up to which every event received is either finished or here, so the next run
 * resumes after it and the service's log brings back the rest. The forwarder keeps what it
 * is about to send in memory (what it hands to `keep`, and the rows `load` returns): on
 * the way out, the spool is only written to.
 */
export class Spool {
  private readonly db: Sqlite;
  /** The service's log (the ready frame's `log`) of the cursors written from now on: kept with each, as a cursor of one log says nothing in another. */
  cursorLog: string | undefined;

  constructor(readonly file: string) {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    // SQLite's own checkpoints stalled every ~125th event (two fsyncs, 3-10 ms); commits
    // themselves still do not wait for the disk.
    this.db = new Sqlite(file, { checkpointOffThread: true });
    this.db.exec(SCHEMA);
    this.cursorLog = this.log;
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
    this.db.transaction(() => this.setCursor(id));
  }

  /** The log the cursor is an event of (none from a service that names none). */
  get log(): string | undefined {
    return this.state('log');
  }

  private setCursor(id: string): void {
    this.setState('cursor', id);
    if (this.cursorLog === undefined) this.db.run("DELETE FROM state WHERE key = 'log'");
    else this.setState('log', this.cursorLog);
  }

  /**
   * Keeps these deliveries (each gets its seq; one the spool already has for its target
   * is not doubled) and moves the cursor to `cursor`, in one transaction: durable before
   * the cursor passes them. Returns those it added, in order.
   */
  keep(pendings: readonly Pending[], cursor?: string): Pending[] {
    return this.db.transaction(() => {
      const added = pendings.filter((pending) => {
        const { changes, lastInsertRowid } = this.db.run(
          'INSERT OR IGNORE INTO pending (event_id, target, event, attempts, first_attempt_at, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?)',
          pending.event.id, pending.target, pending.payload, pending.attempts, pending.firstAttemptAt, pending.nextAttemptAt,
        );
        if (Number(changes) === 0) return false;
        pending.seq = Number(lastInsertRowid);
        return true;
      });
      if (cursor !== undefined) this.setCursor(cursor);
      return added;
    });
  }

  /** Up to `limit` of the target's rows after `afterSeq`, oldest first (what an earlier run left, or more than is kept in memory). */
  load(target: string, afterSeq: number, limit: number): Pending[] {
    return this.db
      .all<PendingRow>('SELECT seq, event, attempts, first_attempt_at, next_attempt_at FROM pending WHERE target = ? AND seq > ? ORDER BY seq LIMIT ?', target, afterSeq, limit)
      .map((row) => ({ seq: row.seq, event: JSON.parse(row.event) as Event, payload: row.event, target, attempts: row.attempts, firstAttemptAt: row.first_attempt_at, nextAttemptAt: row.next_attempt_at }));
  }

  /** An attempt failed; try again at `retryAt` (the row and `pending` alike). */
  retry(pending: Pending, attemptedAt: number, retryAt: number): void {
    pending.attempts++;
    pending.firstAttemptAt ??= attemptedAt;
    pending.nextAttemptAt = retryAt;
    this.db.transaction(() => this.db.run('UPDATE pending SET attempts = ?, first_attempt_at = ?, next_attempt_at = ? WHERE seq = ?', pending.attempts, pending.firstAttemptAt, retryAt, pending.seq));
  }

  /**
   * Targets are done with these events (and the cursor moves to `cursor`), in one
   * transaction: the ids of those no target still waits for.
   */
  done(finished: readonly Pending[], cursor?: string): string[] {
    if (finished.length === 0 && cursor === undefined) return [];
    return this.db.transaction(() => {
      if (cursor !== undefined) this.setCursor(cursor);
      if (finished.length === 0) return [];
      this.db.run('DELETE FROM pending WHERE seq IN (SELECT value FROM json_each(?))', JSON.stringify(finished.map((pending) => pending.seq)));
      const ids = JSON.stringify([...new Set(finished.map((pending) => pending.event.id))]);
      return this.db
        .all<{ id: string }>('SELECT value AS id FROM json_each(?) WHERE NOT EXISTS (SELECT 1 FROM pending WHERE event_id = value) ORDER BY key', ids)
        .map((row) => row.id);
    });
  }

  /** Events waiting for any of these targets, and, per other target, its waiting events (left by a run that had it). */
  waitingFor(targets: readonly string[]): { events: number; elsewhere: Array<{ target: string; events: number }> } {
    const list = JSON.stringify(targets);
    const events = this.db.get<{ n: number }>('SELECT count(DISTINCT event_id) AS n FROM pending WHERE target IN (SELECT value FROM json_each(?))', list)!.n;
    const elsewhere = this.db.all<{ target: string; events: number }>(
      'SELECT target, count(*) AS events FROM pending WHERE target NOT IN (SELECT value FROM json_each(?)) GROUP BY target ORDER BY target',
      list,
    );
    return { events, elsewhere };
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
