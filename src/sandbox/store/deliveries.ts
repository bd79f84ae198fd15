import type { Delivery, DeliveryAttempt, DeliveryStatus } from '../../domain/events.js';
import type { DurableMark } from '../../infra/sqlite.js';
import { toInstant } from '../../infra/time.js';
import type { Database } from './db.js';
import { SandboxKeys } from './keys.js';

/** A delivery the worker is about to attempt. */
export interface DueDelivery {
  id: number;
  account: string;
  event_id: string;
  endpoint_id: string;
  url: string;
  attempts: DeliveryAttempt[];
}

interface DeliveryRow {
  id: number;
  account: string;
  event_id: string;
  endpoint_id: string;
  url: string;
  status: DeliveryStatus;
  attempts: string;
  next_attempt_at: number | null;
}

/**
 * Webhook deliveries and endpoint secrets. A delivery row is written in the transaction
 * of its event, so an event never lacks its deliveries and a restart finds every
 * delivery still due. Only deliveries on disk are due: an endpoint is never sent an event
 * that a crash of the machine could still take back. Times here are real time (ms), not
 * the test clock: retries are for the developer's wall clock.
 */
export class DeliveryStore {
  /** Ids are given out here, never twice (SQLite's would be again after a rollback): the mark below follows them. */
  private nextId: number;
  /** The newest delivery on disk: every one at or below it is. */
  private readonly onDisk: DurableMark;

  constructor(
    private readonly db: Database,
    private readonly keys: SandboxKeys,
  ) {
    this.nextId = db.get<{ top: number }>("SELECT max(coalesce((SELECT max(id) FROM deliveries), 0), coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'deliveries'), 0)) AS top")!.top + 1;
    this.onDisk = db.mark(() => this.nextId - 1);
  }

  /** Endpoint secrets are kept sealed with the key file's key: the database alone never reveals one. */
  saveSecret(account: string, endpointId: string, secret: string): void {
    this.db.run('INSERT INTO webhook_secrets (endpoint_id, account, secret) VALUES (?, ?, ?)', endpointId, account, this.keys.seal(secret));
  }

  /** The endpoint's secret; none when it was sealed with a key file since lost. */
  secretOf(account: string, endpointId: string): string | undefined {
    const row = this.db.get<{ secret: string }>('SELECT secret FROM webhook_secrets WHERE endpoint_id = ? AND account = ?', endpointId, account);
    try {
      return row && this.keys.unseal(row.secret);
    } catch {
      return undefined;
    }
  }

  /** Seals the secrets a database from before sealing kept in clear; returns how many. */
  sealPlainSecrets(): number {
    const plain = this.db.all<{ endpoint_id: string; secret: string }>('SELECT endpoint_id, secret FROM webhook_secrets').filter((r) => !SandboxKeys.isSealed(r.secret));
    for (const row of plain) this.db.run('UPDATE webhook_secrets SET secret = ? WHERE endpoint_id = ?', this.keys.seal(row.secret), row.endpoint_id);
    return plain.length;
  }

  enqueue(account: string, eventId: string, endpoint: { id: string; url: string }, dueMs: number): void {
    this.db.run(
      "INSERT INTO deliveries (id, account, event_id, endpoint_id, url, status, next_attempt_at, created) VALUES (?, ?, ?, ?, ?, 'pending', ?, ?)",
      this.nextId++, account, eventId, endpoint.id, endpoint.url, dueMs, dueMs,
    );
  }

  /** Pending deliveries on disk due at nowMs, oldest first, leaving out those already in flight and those to `skipEndpoints`. */
  due(nowMs: number, limit: number, inFlight: ReadonlySet<number>, skipEndpoints: readonly string[] = []): DueDelivery[] {
    const skip = skipEndpoints.length === 0 ? '' : ` AND endpoint_id NOT IN (${skipEndpoints.map(() => '?').join(', ')})`;
    const rows = this.db.durableRead(() => this.db.all<DeliveryRow>(
      `SELECT * FROM deliveries WHERE status = 'pending' AND next_attempt_at <= ? AND id <= ?${skip} ORDER BY next_attempt_at, id LIMIT ?`,
      nowMs, this.onDisk.durable, ...skipEndpoints, limit + inFlight.size,
    ));
    return rows
      .filter((r) => !inFlight.has(r.id))
      .slice(0, limit)
      .map((r) => ({ id: r.id, account: r.account, event_id: r.event_id, endpoint_id: r.endpoint_id, url: r.url, attempts: JSON.parse(r.attempts) as DeliveryAttempt[] }));
  }

  /** When the next pending delivery on disk after nowMs is due (ms), if any. */
  nextDueAfter(nowMs: number): number | undefined {
    return this.db.durableRead(() => this.db.get<{ next: number | null }>("SELECT min(next_attempt_at) AS next FROM deliveries WHERE status = 'pending' AND next_attempt_at > ? AND id <= ?", nowMs, this.onDisk.durable))?.next ?? undefined;
  }

  /** Moves every pending delivery's due time by ms (the system clock was set back by -ms). */
  shiftPending(ms: number): void {
    this.db.run("UPDATE deliveries SET next_attempt_at = next_attempt_at + ? WHERE status = 'pending'", ms);
  }

  /**
   * Records an attempt; `next` is the retry time, or the final status. An attempt in
   * flight when its endpoint was disabled or deleted (canceled meanwhile) is still kept:
   * the receiver got it, and its answer (2xx, 410) is the delivery's end; one that would
   * be retried stays canceled.
   */
  record(id: number, attempts: DeliveryAttempt[], next: { retryAt: number } | { status: Exclude<DeliveryStatus, 'pending'> }): void {
    if ('retryAt' in next) {
      this.db.run(
        "UPDATE deliveries SET attempts = ?, next_attempt_at = CASE status WHEN 'pending' THEN ? END WHERE id = ? AND status IN ('pending', 'canceled')",
        JSON.stringify(attempts), next.retryAt, id,
      );
    } else {
      this.db.run("UPDATE deliveries SET attempts = ?, status = ?, next_attempt_at = NULL WHERE id = ? AND status IN ('pending', 'canceled')", JSON.stringify(attempts), next.status, id);
    }
  }

  /** An endpoint deleted or disabled gets nothing more. */
  cancelForEndpoint(account: string, endpointId: string): void {
    this.db.run("UPDATE deliveries SET status = 'canceled', next_attempt_at = NULL WHERE account = ? AND endpoint_id = ? AND status = 'pending'", account, endpointId);
  }

  forEvent(account: string, eventId: string): Delivery[] {
    return this.db
      .all<DeliveryRow>('SELECT * FROM deliveries WHERE account = ? AND event_id = ? ORDER BY id', account, eventId)
      .map((r) => ({
        webhook_endpoint_id: r.endpoint_id,
        url: r.url,
        status: r.status,
        attempts: JSON.parse(r.attempts) as DeliveryAttempt[],
        next_attempt_at: r.next_attempt_at === null ? null : toInstant(r.next_attempt_at),
      }));
  }

  clear(account: string): void {
    this.db.run('DELETE FROM deliveries WHERE account = ?', account);
    this.db.run('DELETE FROM webhook_secrets WHERE account = ?', account);
  }
}
