import type { Database } from './db.js';

/**
 * Values read from committed rows, kept in memory for what every request reads (its
 * account by key, the account's clock). Only a read outside any transaction is kept:
 * inside one it may yet roll back. Whoever writes those rows drops the entry first, so a
 * later read sees the database again, whether that write commits or rolls back.
 */
export class CommittedCache<K, V> {
  private readonly values = new Map<K, V>();

  constructor(private readonly db: Database) {}

  get(key: K, load: () => V | undefined): V | undefined {
    const cached = this.values.get(key);
    if (cached !== undefined) return cached;
    const value = load();
    if (value !== undefined && !this.db.inTransaction) this.values.set(key, value);
    return value;
  }

  delete(key: K): void {
    this.values.delete(key);
  }

  clear(): void {
    this.values.clear();
  }
}
