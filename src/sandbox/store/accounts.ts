import { createHash } from 'node:crypto';
import { newId, randomToken } from '../../domain/ids.js';
import { CommittedCache } from './committed-cache.js';
import type { Database } from './db.js';

export interface Account {
  id: string;
}

/** The latest keyed clock advance, under way or done: its target, and the request that asked for it. */
export interface ClockAdvanceUnderWay {
  to: string;
  key: string;
  body_hash: string;
}

export const hashKey = (apiKey: string) => createHash('sha256').update(apiKey).digest('hex');
export const newApiKey = () => `sk_test_${randomToken(32)}`;

/** Keys are stored only as hashes: the sandbox can check a key but never show it. */
export class AccountStore {
  /** Every request reads its account by key and the account's clock: both kept as committed. One entry a valid key or an account. */
  private readonly byKeyCache: CommittedCache<string, Account>;
  private readonly clockCache: CommittedCache<string, string>;
  private readonly keyCache: CommittedCache<string, number>;

  constructor(private readonly db: Database) {
    this.byKeyCache = new CommittedCache(db);
    this.clockCache = new CommittedCache(db);
    this.keyCache = new CommittedCache(db);
  }

  /** Creates the account, or re-keys it when it exists (a CI-provided key wins). */
  upsert(input: { id?: string | undefined; apiKey: string; clockNow: string }): Account {
    const id = input.id ?? newId('account');
    this.byKeyCache.clear();
    if (this.exists(id)) {
      this.db.run('UPDATE accounts SET api_key_hash = ? WHERE id = ?', hashKey(input.apiKey), id);
      return { id };
    }
    this.db.run(
      'INSERT INTO accounts (id, api_key_hash, clock_now, created, key) VALUES (?, ?, ?, ?, (SELECT coalesce(max(key), 0) + 1 FROM accounts))',
      id, hashKey(input.apiKey), input.clockNow, new Date().toISOString(),
    );
    return { id };
  }

  exists(id: string): boolean {
    return this.db.get('SELECT 1 AS one FROM accounts WHERE id = ?', id) !== undefined;
  }

  byId(id: string): Account | undefined {
    return this.db.get<Account>('SELECT id FROM accounts WHERE id = ?', id);
  }

  byKey(apiKey: string): Account | undefined {
    return this.byKeyCache.get(apiKey, () => this.db.get<Account>('SELECT id FROM accounts WHERE api_key_hash = ?', hashKey(apiKey)));
  }

  /** The small number the busy tables store for the account (migration 6). */
  keyOf(id: string): number {
    const key = this.keyCache.get(id, () => this.db.get<{ key: number }>('SELECT key FROM accounts WHERE id = ?', id)?.key);
    if (key === undefined) throw new Error(`no account ${id}`);
    return key;
  }

  ids(): string[] {
    return this.db.all<{ id: string }>('SELECT id FROM accounts ORDER BY created').map((r) => r.id);
  }

  clockNow(id: string): string {
    const now = this.clockCache.get(id, () => this.db.get<{ clock_now: string }>('SELECT clock_now FROM accounts WHERE id = ?', id)?.clock_now);
    if (now === undefined) throw new Error(`no account ${id}`);
    return now;
  }

  setClockNow(id: string, now: string): void {
    this.clockCache.delete(id);
    this.db.run('UPDATE accounts SET clock_now = ? WHERE id = ?', now, id);
  }

  /** The latest clock advance, if it had an Idempotency-Key (TestClock.resumable). */
  clockAdvance(id: string): ClockAdvanceUnderWay | undefined {
    const row = this.db.get<{ clock_advance: string | null }>('SELECT clock_advance FROM accounts WHERE id = ?', id);
    return row?.clock_advance ? (JSON.parse(row.clock_advance) as ClockAdvanceUnderWay) : undefined;
  }

  /** Every account's, when the body MACs they hold can no longer be matched (a new MAC key). */
  forgetClockAdvances(): void {
    this.db.run('UPDATE accounts SET clock_advance = NULL');
  }

  setClockAdvance(id: string, advance: ClockAdvanceUnderWay | null): void {
    this.db.run('UPDATE accounts SET clock_advance = ? WHERE id = ?', advance === null ? null : JSON.stringify(advance), id);
  }
}
