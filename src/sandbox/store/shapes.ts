import { CommittedCache } from './committed-cache.js';
import type { Database } from './db.js';

type Packed = null | boolean | number | string | Packed[];

/** A key list as a path of keys from the root: found by walking keys a writer has at hand, not by making its text. */
interface KeyPath {
  next: Map<string, KeyPath>;
}

/**
 * Stored objects without their key names: an object is kept as `[shape, ...values]`, its
 * key list (its shape) stored once in `shapes`, an array as `[0, ...items]`. The objects
 * of one kind share a handful of shapes, so their rows lose most of their bytes, and an
 * object read back has its keys in their order: it serialises to the same JSON as the
 * object written, which replays and events depend on. Rows written before (JSON objects,
 * `{…}`) read as they are.
 */
export class Shapes {
  private readonly root: KeyPath = { next: new Map() };
  private readonly idByKeys: CommittedCache<KeyPath, number>;
  private readonly keysById: CommittedCache<number, string[]>;

  constructor(private readonly db: Database) {
    this.idByKeys = new CommittedCache(db);
    this.keysById = new CommittedCache(db);
  }

  encode(object: object): string {
    return JSON.stringify(this.pack(object));
  }

  decode<T>(text: string): T {
    const value = JSON.parse(text) as unknown;
    return (text.startsWith('{') ? value : this.unpack(value as Packed)) as T;
  }

  private pack(value: unknown): Packed {
    if (value === null || typeof value !== 'object') return value as Packed;
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return this.pack((value as { toJSON: () => unknown }).toJSON());
    if (Array.isArray(value)) {
      const packed: Packed[] = [0];
      // As JSON.stringify writes them: a hole, undefined or a function is null in an array.
      for (const item of value) packed.push(item === undefined || typeof item === 'function' ? null : this.pack(item));
      return packed;
    }
    const record = value as Record<string, unknown>;
    const keys: string[] = [];
    const packed: Packed[] = [0];
    let path = this.root;
    for (const key of Object.keys(record)) {
      const item = record[key];
      // JSON.stringify leaves these keys out of an object.
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
      keys.push(key);
      let next = path.next.get(key);
      if (!next) path.next.set(key, (next = { next: new Map() }));
      path = next;
      packed.push(this.pack(item));
    }
    packed[0] = this.shapeOf(path, keys);
    return packed;
  }

  private unpack(value: Packed): unknown {
    if (!Array.isArray(value)) return value;
    const head = value[0] as number;
    if (head === 0) return value.slice(1).map((item) => this.unpack(item));
    const keys = this.keysOf(head);
    const object: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const item = this.unpack(value[i + 1]!);
      // A key named __proto__ is an own property in JSON, not the prototype.
      if (key === '__proto__') Object.defineProperty(object, key, { value: item, enumerable: true, writable: true, configurable: true });
      else object[key] = item;
    }
    return object;
  }

  /** The shape's number; a new shape is stored in the caller's transaction and kept in memory once that commits. */
  private shapeOf(path: KeyPath, keys: string[]): number {
    return this.idByKeys.get(path, () => {
      const text = JSON.stringify(keys);
      return (
        this.db.get<{ id: number }>('SELECT id FROM shapes WHERE keys = ?', text)?.id ??
        this.db.get<{ id: number }>('INSERT INTO shapes (keys) VALUES (?) RETURNING id', text)!.id
      );
    })!;
  }

  private keysOf(id: number): string[] {
    const keys = this.keysById.get(id, () => {
      const row = this.db.get<{ keys: string }>('SELECT keys FROM shapes WHERE id = ?', id);
      return row && (JSON.parse(row.keys) as string[]);
    });
    if (!keys) throw new Error(`stored data names shape ${id}, which is not stored`);
    return keys;
  }
}
