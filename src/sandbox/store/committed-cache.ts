import type { Database } from './db.js';

/**
 * Values read from committed rows, kept in memory for what every request reads (its
 * account by key, the account's clock, its account's row key, object shapes). A value
 * read inside a transaction may yet roll back: it is kept only once that transaction
 * commits, unless an entry was dropped meanwhile. Whoever writes those rows drops the
 * entry first, so a later read sees the database again, whether that write commits or
 * rolls back.
 */
export class CommittedCache<K, V> {
  private readonly values = new Map<K, V>();
  /** Bumped by every drop: a value read before it is stale and must not be kept at commit. */
  private generation = 0;

  constructor(private readonly db: Database) {}

  get(key: K, load: () => V | undefined): V | undefined {
    const cached = this.values.get(key);
    if (cached !== undefined) return cached;
    const value = load();
    if (value === undefined) return value;
    if (!this.db.inTransaction) {
      this.values.set(key, value);
    } else {
      const generation = this.generation;
      this.db.onCommit(() => {
        if (generation === this.generation) this.values.set(key, value);
      });
    }
    return value;
  }

  delete(key: K): void {
    this.generation++;
    this.values.delete(key);
  }

  clear(): void {
    this.generation++;
    this.values.clear();
  }
}
