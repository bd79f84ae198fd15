import type { Database } from './db.js';

/** Keys dropped while values read before were waiting for their commit, remembered at most this many at once. */
const DROPS_REMEMBERED = 10_000;

/**
 * Values read from committed rows, kept in memory for what every request reads (its
 * account by key, the account's clock, its account's row key, object shapes, objects
 * read). A value read inside a transaction may yet roll back: it is kept only once that
 * transaction commits, unless its entry was dropped meanwhile. Whoever writes those rows
 * drops the entry first, so a later read sees the database again, whether that write
 * commits or rolls back.
 */
export class CommittedCache<K, V> {
  private readonly values = new Map<K, V>();
  /** Counts drops: a value read before a drop of its key must not be kept at commit. */
  private generation = 0;
  /** The generation of each key's latest drop; below `floor`, every key counts as dropped. */
  private readonly dropped = new Map<K, number>();
  private floor = 0;

  /** `limit`: at most that many values, the oldest kept forgotten first. */
  constructor(
    private readonly db: Database,
    private readonly limit = Infinity,
  ) {}

  get(key: K, load: () => V | undefined): V | undefined {
    const cached = this.values.get(key);
    if (cached !== undefined) return cached;
    const value = load();
    if (value === undefined) return value;
    if (!this.db.inTransaction) {
      this.keep(key, value);
    } else {
      const readAt = this.generation;
      this.db.onCommit(() => {
        if (readAt >= this.floor && (this.dropped.get(key) ?? -1) < readAt) this.keep(key, value);
      });
    }
    return value;
  }

  private keep(key: K, value: V): void {
    this.values.set(key, value);
    if (this.values.size > this.limit) this.values.delete(this.values.keys().next().value!);
  }

  delete(key: K): void {
    this.values.delete(key);
    this.dropped.set(key, this.generation++);
    if (this.dropped.size > DROPS_REMEMBERED) this.clear();
  }

  clear(): void {
    this.values.clear();
    this.dropped.clear();
    this.floor = ++this.generation;
  }
}
