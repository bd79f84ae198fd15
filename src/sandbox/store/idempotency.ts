import type { BaseObject } from '../../domain/common.js';
import { DAY_MS, msOf } from '../../infra/time.js';
import type { AccountStore } from './accounts.js';
import type { Database } from './db.js';
import { type ObjectStore, versionData } from './objects.js';

export interface StoredResponse {
  method: string;
  path: string;
  /** A keyed MAC of the body (SandboxKeys.bodyMac), never a plain hash: bodies hold card fields. */
  body_hash: string;
  status: number;
  response: string;
  created: string;
}

/** A key is kept a day of test-clock time: older, it is as if never used (DESIGN section 4). */
export const idempotencyExpired = (created: string, now: string) => msOf(now) - msOf(created) >= DAY_MS;

interface ResponseRow extends Omit<StoredResponse, 'response'> {
  response: string | null;
  object: string | null;
}

export class IdempotencyStore {
  constructor(
    private readonly db: Database,
    private readonly accounts: AccountStore,
    private readonly objects: ObjectStore,
  ) {}

  find(account: string, key: string): StoredResponse | undefined {
    const row = this.db.get<ResponseRow>(
      `SELECT method, path, body_hash, status, created, response, ${versionData('idempotency')} AS object FROM idempotency WHERE account = ? AND key = ?`,
      this.accounts.keyOf(account), key,
    );
    if (!row) return undefined;
    const { object, response, ...rest } = row;
    // A version serialises to the bytes of the response that named it.
    return { ...rest, response: response ?? JSON.stringify(this.objects.decode(object!)) };
  }

  /**
   * Keeps the response to replay. A response that is an object as stored (`object`, as
   * the store wrote it and unchanged since) is kept as the name of that version.
   */
  save(account: string, key: string, record: StoredResponse, object?: BaseObject): void {
    const version = object && this.objects.versionOf(account, object);
    this.db.run(
      `INSERT INTO idempotency (account, key, method, path, body_hash, status, created, object_seq, version, response) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (account, key) DO UPDATE SET method = excluded.method, path = excluded.path, body_hash = excluded.body_hash, status = excluded.status,
         created = excluded.created, object_seq = excluded.object_seq, version = excluded.version, response = excluded.response`,
      this.accounts.keyOf(account), key, record.method, record.path, record.body_hash, record.status, record.created,
      version?.seq ?? null, version?.version ?? null, version ? null : record.response,
    );
  }

  /**
   * Deletes the account's records expired at `now` (idempotencyExpired): the test clock,
   * which alone expires them, has moved past them, and nothing reads them again.
   */
  forgetExpired(account: string, now: string): void {
    this.db.run("DELETE FROM idempotency WHERE account = ? AND unixepoch(created, 'subsec') * 1000 <= ?", this.accounts.keyOf(account), msOf(now) - DAY_MS);
  }

  clear(account: string): void {
    this.db.run('DELETE FROM idempotency WHERE account = ?', this.accounts.keyOf(account));
  }

  clearAll(): void {
    this.db.run('DELETE FROM idempotency');
  }
}
