import type { Database } from './db.js';

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
      'SELECT method, path, body_hash, status, response, created FROM idempotency WHERE account = ? AND key = ?',
      account, key,
    );
  }

  save(account: string, key: string, record: StoredResponse): void {
    this.db.run(
      `INSERT INTO idempotency (account, key, method, path, body_hash, status, response, created)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (account, key) DO UPDATE SET method = excluded.method, path = excluded.path,
         body_hash = excluded.body_hash, status = excluded.status, response = excluded.response, created = excluded.created`,
      account, key, record.method, record.path, record.body_hash, record.status, record.response, record.created,
    );
  }

  clear(account: string): void {
    this.db.run('DELETE FROM idempotency WHERE account = ?', account);
  }

  clearAll(): void {
    this.db.run('DELETE FROM idempotency');
  }
}
