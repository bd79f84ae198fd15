import { randomInt } from 'node:crypto';
import type { BaseObject } from '../../domain/common.js';
import type { HeldTable } from '../../infra/sqlite.js';
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

/** Records are inserted late (Sqlite.hold), under the row number the index names: a request that only inserts shares its statements with its neighbours. */
const IDEMPOTENCY: HeldTable = {
  name: 'idempotency',
  columns: ['seq', 'account', 'key', 'method', 'path', 'body_hash', 'status', 'created', 'object_seq', 'version', 'response'],
};

/** A record's row, found by its key's hash: the key is compared, since hashes may be shared. */
const RECORD = (select: string) => `SELECT ${select} FROM idempotency WHERE seq = ? AND account = ? AND key = ?`;

/**
 * Idempotency records, kept in rows appended in the order made (migration 7) and found
 * through an index in memory: a hash of (account, key) to the row, or rows, holding it.
 * A fresh key, the common case, costs no read. The index follows the rows inside
 * transactions too (a request sees a key saved earlier in its group) and is put back if
 * they roll back. It costs some 40 bytes a live record.
 */
export class IdempotencyStore {
  private readonly index = new Map<number, number | number[]>();
  private nextSeq: number;

  constructor(
    private readonly db: Database,
    private readonly accounts: AccountStore,
    private readonly objects: ObjectStore,
    private readonly hashOf: KeyHash = seededKeyHash(randomInt(0x40000000)),
  ) {
    let top = 0;
    for (const row of db.iterate<{ seq: number; account: number; key: string }>('SELECT seq, account, key FROM idempotency')) {
      this.add(this.hashOf(row.account, row.key), row.seq);
      top = Math.max(top, row.seq);
    }
    this.nextSeq = top + 1;
  }

  find(account: string, key: string): StoredResponse | undefined {
    const found = this.locate(this.accounts.keyOf(account), key, `method, path, body_hash, status, created, response, ${versionData('idempotency')} AS object`);
    if (!found) return undefined;
    const { object, response, ...rest } = found.row as unknown as ResponseRow;
    // A version serialises to the bytes of the response that named it.
    return { ...rest, response: response ?? JSON.stringify(this.objects.decode(object!)) };
  }

  /**
   * Keeps the response to replay, in place of an expired record of the key. A response
   * that is an object as stored (`object`, as the store wrote it and unchanged since) is
   * kept as the name of that version.
   */
  save(account: string, key: string, record: StoredResponse, object?: BaseObject): void {
    const accountKey = this.accounts.keyOf(account);
    const hash = this.hashOf(accountKey, key);
    const old = this.locate(accountKey, key, 'seq');
    if (old) {
      this.db.run('DELETE FROM idempotency WHERE seq = ?', old.seq);
      this.forget(hash, old.seq);
    }
    const version = object && this.objects.versionOf(account, object);
    const seq = this.nextSeq++;
    this.db.hold(IDEMPOTENCY, [
      seq, accountKey, key, record.method, record.path, record.body_hash, record.status, record.created,
      version?.seq ?? null, version?.version ?? null, version ? null : record.response,
    ]);
    this.add(hash, seq);
    this.db.onRollback(() => this.remove(hash, seq));
  }

  /**
   * Deletes the account's records expired at `now` (idempotencyExpired): the test clock,
   * which alone expires them, has moved past them, and nothing reads them again.
   */
  forgetExpired(account: string, now: string): void {
    this.deleted(this.db.all<{ seq: number; account: number; key: string }>(
      "DELETE FROM idempotency WHERE account = ? AND unixepoch(created, 'subsec') * 1000 <= ? RETURNING seq, account, key",
      this.accounts.keyOf(account), msOf(now) - DAY_MS,
    ));
  }

  clear(account: string): void {
    this.deleted(this.db.all('DELETE FROM idempotency WHERE account = ? RETURNING seq, account, key', this.accounts.keyOf(account)));
  }

  clearAll(): void {
    this.deleted(this.db.all('DELETE FROM idempotency RETURNING seq, account, key'));
  }

  /** The row holding the account's record of `key`, with the columns asked for. */
  private locate(account: number, key: string, columns: string): { seq: number; row: Record<string, unknown> } | undefined {
    const at = this.index.get(this.hashOf(account, key));
    if (at === undefined) return undefined;
    for (const seq of typeof at === 'number' ? [at] : at) {
      const row = this.db.get(RECORD(columns), seq, account, key);
      if (row) return { seq, row };
    }
    return undefined;
  }

  private deleted(rows: Array<{ seq: number; account: number; key: string }>): void {
    for (const { seq, account, key } of rows) this.forget(this.hashOf(account, key), seq);
  }

  /** Drops a deleted row from the index, to come back if its deletion rolls back. */
  private forget(hash: number, seq: number): void {
    this.remove(hash, seq);
    this.db.onRollback(() => this.add(hash, seq));
  }

  private add(hash: number, seq: number): void {
    const at = this.index.get(hash);
    this.index.set(hash, at === undefined ? seq : typeof at === 'number' ? [at, seq] : [...at, seq]);
  }

  private remove(hash: number, seq: number): void {
    const at = this.index.get(hash);
    if (at === seq) return void this.index.delete(hash);
    if (typeof at !== 'object') return;
    const left = at.filter((s) => s !== seq);
    this.index.set(hash, left.length === 1 ? left[0]! : left);
  }
}

export type KeyHash = (account: number, key: string) => number;

/**
 * FNV-1a over the account and the key, to 30 bits (a number V8 keeps unboxed), seeded
 * per process: keys chosen to share a hash cannot be chosen without the seed.
 */
function seededKeyHash(seed: number): KeyHash {
  return (account, key) => {
    let hash = (0x811c9dc5 ^ seed ^ account) >>> 0;
    for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
    return hash & 0x3fffffff;
  };
}
