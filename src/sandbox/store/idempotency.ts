import type { Database } from './db.js';
import { versionData } from './objects.js';

export interface StoredResponse {
  method: string;
  path: string;
  /** A keyed MAC of the body (SandboxKeys.bodyMac), never a plain hash: bodies hold card fields. */
  body_hash: string;
  status: number;
  response: string;
  created: string;
}

export class IdempotencyStore {
  constructor(private readonly db: Database) {}

  find(account: string, key: string): StoredResponse | undefined {
    return this.db.get<StoredResponse>(
      `SELECT method, path, body_hash, status, CASE WHEN object_seq IS NULL THEN response ELSE ${versionData('idempotency')} END AS response, created
       FROM idempotency WHERE account = ? AND key = ?`,
      account, key,
    );
  }

  /**
   * Keeps the response to replay. A response that is an object as stored (`objectId`'s
   * current version, byte for byte) is kept as the name of that version.
   */
  save(account: string, key: string, record: StoredResponse, objectId?: string): void {
    const upsert = `ON CONFLICT (account, key) DO UPDATE SET method = excluded.method, path = excluded.path, body_hash = excluded.body_hash,
      status = excluded.status, response = excluded.response, created = excluded.created, object_seq = excluded.object_seq, version = excluded.version`;
    const values = [account, key, record.method, record.path, record.body_hash, record.status] as const;
    if (objectId !== undefined) {
      const { changes } = this.db.run(
        `INSERT INTO idempotency (account, key, method, path, body_hash, status, response, created, object_seq, version)
         SELECT ?, ?, ?, ?, ?, ?, '', ?, seq, version FROM objects WHERE id = ? AND account = ? AND data = ? ${upsert}`,
        ...values, record.created, objectId, account, record.response,
      );
      if (Number(changes) === 1) return;
    }
    this.db.run(
      `INSERT INTO idempotency (account, key, method, path, body_hash, status, response, created, object_seq, version)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL) ${upsert}`,
      ...values, record.response, record.created,
    );
  }

  clear(account: string): void {
    this.db.run('DELETE FROM idempotency WHERE account = ?', account);
  }

  clearAll(): void {
    this.db.run('DELETE FROM idempotency');
  }
}
