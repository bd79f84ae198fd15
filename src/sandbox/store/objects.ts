import type { BaseObject, ListPage } from '../../domain/common.js';
import { ApiError, clip } from '../../domain/errors.js';
import { type ObjectKind, rowId, rowOf } from '../../domain/ids.js';
import type { HeldTable } from '../../infra/sqlite.js';
import type { AccountStore } from './accounts.js';
import { CommittedCache } from './committed-cache.js';
import type { Database } from './db.js';
import type { Shapes } from './shapes.js';

/** Fields kept beside the data as columns: what lists filter on and billing orders by (migration 6). */
const COLUMNS = ['status', 'customer_id', 'subscription_id', 'payment_intent_id', 'next_payment_at', 'cancel_at'] as const;
type Column = (typeof COLUMNS)[number];
const isColumn = (field: string): field is Column => (COLUMNS as readonly string[]).includes(field);
/** Objects are inserted late (Sqlite.hold), under their row number: one a request creates and changes again is written once. */
const OBJECTS: HeldTable = { name: 'objects', columns: ['seq', 'account', 'kind', 'id', 'version', ...COLUMNS, 'data'] };
/** Where a held object row has what update() reads of it. */
const AT = { account: OBJECTS.columns.indexOf('account'), id: OBJECTS.columns.indexOf('id'), version: OBJECTS.columns.indexOf('version'), data: OBJECTS.columns.indexOf('data') };
const VERSIONS: HeldTable = { name: 'object_versions', columns: ['object_seq', 'version', 'account', 'data'] };
/** The update's statement, made once: a text built per call is hashed afresh to find its cached statement. */
const UPDATE = `UPDATE objects SET version = version + 1, ${COLUMNS.map((c) => `${c} = ?`).join(', ')}, data = ? WHERE seq = ? AND id = ? AND account = ? RETURNING version`;
const columnValues = (object: BaseObject) => COLUMNS.map((field) => {
  const value = (object as unknown as Record<string, unknown>)[field];
  return typeof value === 'string' ? value : null;
});

/** Where a version of an object is kept: its row and version number. */
export interface VersionRef {
  seq: number;
  version: number;
}

/**
 * Freezes an object the store wrote, and everything in it: the version it names stays
 * what it is, so an event or a stored response holding the object can name that version
 * instead of copying it (a service makes a changed object with a spread, never in place).
 */
function freeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) freeze(item);
  }
  return value;
}

/** An object as read, with where it is kept: what the cache of objects read holds. */
interface Read extends VersionRef {
  account: number;
  kind: string;
  id: string;
  object: BaseObject;
}

/** Objects read are kept (frozen) for the next read of them: an app polling an intent, a method every payment names. */
const CACHED_OBJECTS = 1000;

/**
 * Resources stored by id, each in its row: `seq` orders lists (newest first) and anchors
 * cursors, so a cursor stays stable while the objects it passed change status; the id
 * names the row (rowId). Data is kept without key names (Shapes); an update keeps the
 * version it replaces in object_versions, for the events and stored responses that name it.
 */
export class ObjectStore {
  private nextSeq: number;
  private readonly cache: CommittedCache<number, Read>;
  /** Where each object this store wrote or read (frozen) is kept. */
  private readonly written = new WeakMap<object, VersionRef>();
  /** The JSON of such a version, once asked for: it never changes. */
  private readonly json = new WeakMap<object, string>();

  constructor(
    private readonly db: Database,
    private readonly accounts: AccountStore,
    private readonly shapes: Shapes,
  ) {
    this.cache = new CommittedCache(db, CACHED_OBJECTS);
    // Never a number a kept version still names (rows of deleted objects live on there).
    const row = db.get<{ top: number }>('SELECT max(coalesce((SELECT max(seq) FROM objects), 0), coalesce((SELECT max(object_seq) FROM object_versions), 0)) AS top')!;
    this.nextSeq = row.top + 1;
  }

  /** A new object's id: it names the row the object will be inserted in. */
  newId(kind: ObjectKind): string {
    return rowId(kind, this.nextSeq++);
  }

  /** Inserts an object whose id newId made (it names the row). */
  insert<T extends BaseObject>(account: string, object: T): T {
    const seq = rowOf(object.id);
    this.db.hold(OBJECTS, this.row(seq, this.accounts.keyOf(account), 1, object, this.shapes.encode(object)), seq);
    this.written.set(freeze(object), { seq, version: 1 });
    return object;
  }

  private row(seq: number, key: number, version: number, object: BaseObject, data: string) {
    return [seq, key, object.object, object.id, version, ...columnValues(object), data];
  }

  /** Replaces the object; the version it replaces is kept (migration 6's trigger, or here for a row not written yet). */
  update<T extends BaseObject>(account: string, object: T): T {
    const key = this.accounts.keyOf(account);
    // First: encoding may read (a new shape), and a read writes what is held.
    const data = this.shapes.encode(object);
    let seq = rowOf(object.id);
    const held = this.db.heldRow(OBJECTS, seq);
    if (held && held.values[AT.id] === object.id && held.values[AT.account] === key) {
      const version = (held.values[AT.version] as number) + 1;
      this.db.hold(VERSIONS, [seq, version - 1, key, held.values[AT.data]!]);
      held.replace(this.row(seq, key, version, object, data));
      this.written.set(freeze(object), { seq, version });
      return object;
    }
    const replace = (seq: number) => {
      this.cache.delete(seq);
      return this.db.get<{ version: number }>(
        UPDATE,
        ...columnValues(object), data, seq, object.id, key,
      )?.version;
    };
    let version = replace(seq);
    if (version === undefined) {
      const legacy = this.legacySeq(object.id);
      if (legacy !== undefined) version = replace((seq = legacy));
      if (version === undefined) throw new Error(`update of missing object ${object.id}`);
    }
    this.written.set(freeze(object), { seq, version });
    return object;
  }

  /**
   * The version as stored that `object` is: one this store wrote (frozen since), or one
   * equal, byte for byte, to the object as it is stored now.
   */
  versionOf(account: string, object: BaseObject): VersionRef | undefined {
    const written = this.written.get(object);
    if (written) return written;
    const seq = this.seqOf(object.id);
    const row = seq === undefined ? undefined : this.db.get<{ version: number; data: string }>('SELECT version, data FROM objects WHERE seq = ? AND account = ?', seq, this.accounts.keyOf(account));
    return row && JSON.stringify(this.shapes.decode(row.data)) === JSON.stringify(object) ? { seq: seq!, version: row.version } : undefined;
  }

  /**
   * A value as JSON. A version this store wrote or read is serialised once and kept with
   * it (an app polling an object is answered without serialising it again).
   */
  jsonOf(value: unknown): string {
    if (value === null || typeof value !== 'object' || !this.written.has(value)) return JSON.stringify(value);
    let text = this.json.get(value);
    if (text === undefined) this.json.set(value, (text = JSON.stringify(value)));
    return text;
  }

  /** Stored data (as read with versionData): encoded as objects are. */
  encode(object: object): string {
    return this.shapes.encode(object);
  }

  decode<T>(data: string): T {
    return this.shapes.decode<T>(data);
  }

  /** The row of an id: named by the id itself, or, for ids minted before migration 6, found in legacy_ids. */
  seqOf(id: string): number | undefined {
    const seq = rowOf(id);
    return this.db.get('SELECT 1 AS one FROM objects WHERE seq = ? AND id = ?', seq, id) ? seq : this.legacySeq(id);
  }

  private legacySeq(id: string): number | undefined {
    return this.db.get<{ seq: number }>('SELECT seq FROM legacy_ids WHERE id = ?', id)?.seq;
  }

  find<T extends BaseObject>(account: string, kind: string, id: string): T | undefined {
    const key = this.accounts.keyOf(account);
    const read = (seq: number) =>
      this.cache.get(seq, () => {
        const row = this.db.get<{ account: number; kind: string; version: number; data: string }>('SELECT account, kind, version, data FROM objects WHERE seq = ? AND id = ?', seq, id);
        if (!row) return undefined;
        const object = freeze(this.shapes.decode<BaseObject>(row.data));
        this.written.set(object, { seq, version: row.version });
        return { seq, version: row.version, account: row.account, kind: row.kind, id, object };
      });
    let found = read(rowOf(id));
    if (found?.id !== id) {
      const legacy = this.legacySeq(id);
      found = legacy === undefined ? undefined : read(legacy);
    }
    return found?.id === id && found.account === key && found.kind === kind ? (found.object as T) : undefined;
  }

  /** The account an object belongs to: for pages whose URL is the capability (hosted checkout). */
  ownerOf(kind: string, id: string): string | undefined {
    const seq = this.seqOf(id);
    return seq === undefined ? undefined : this.db.get<{ id: string }>('SELECT a.id FROM objects o JOIN accounts a ON a.key = o.account WHERE o.seq = ? AND o.kind = ?', seq, kind)?.id;
  }

  list<T extends BaseObject>(
    account: string,
    kind: string,
    options: { limit: number; starting_after?: string | undefined; filters?: Record<string, string | undefined> },
  ): ListPage<T> {
    const key = this.accounts.keyOf(account);
    const where = ['account = ?', 'kind = ?'];
    const params: Array<string | number> = [key, kind];
    // Fields without a column are rare filters over few objects (readers, activation codes, emails): matched here.
    const unindexed: Array<[string, string]> = [];
    for (const [field, value] of Object.entries(options.filters ?? {})) {
      if (value === undefined) continue;
      if (isColumn(field)) {
        where.push(`${field} = ?`);
        params.push(value);
      } else {
        unindexed.push([field, value]);
      }
    }
    if (options.starting_after !== undefined) {
      const seq = this.seqOf(options.starting_after);
      const cursor = seq !== undefined && this.db.get('SELECT 1 AS one FROM objects WHERE seq = ? AND account = ? AND kind = ?', seq, key, kind);
      if (!cursor) {
        throw new ApiError(400, 'parameter_invalid', `Invalid starting_after: no ${kind} '${clip(options.starting_after)}' to page after.`, { param: 'starting_after' });
      }
      where.push('seq < ?');
      params.push(seq!);
    }
    const sql = `SELECT data FROM objects WHERE ${where.join(' AND ')} ORDER BY seq DESC`;
    const data: T[] = [];
    if (unindexed.length === 0) {
      for (const row of this.db.all<{ data: string }>(`${sql} LIMIT ?`, ...params, options.limit + 1)) data.push(this.shapes.decode<T>(row.data));
    } else {
      for (const row of this.db.iterate<{ data: string }>(sql, ...params)) {
        const object = this.shapes.decode<Record<string, unknown>>(row.data);
        if (unindexed.every(([field, value]) => object[field] === value)) data.push(object as T);
        if (data.length > options.limit) break;
      }
    }
    const has_more = data.length > options.limit;
    if (has_more) data.pop();
    return { object: 'list', data, has_more };
  }

  /** Deletes one object; false when there was none. */
  remove(account: string, kind: string, id: string): boolean {
    const key = this.accounts.keyOf(account);
    const seq = this.seqOf(id);
    if (seq === undefined) return false;
    this.cache.delete(seq);
    const kept = this.db.run('INSERT INTO object_versions (object_seq, version, account, data) SELECT seq, version, account, data FROM objects WHERE seq = ? AND account = ? AND kind = ?', seq, key, kind);
    if (Number(kept.changes) !== 1) return false;
    this.db.run('DELETE FROM objects WHERE seq = ?', seq);
    return true;
  }

  /** Deletes every object of an account (sandbox reset). */
  clear(account: string): void {
    const key = this.accounts.keyOf(account);
    this.cache.clear();
    this.db.run('DELETE FROM objects WHERE account = ?', key);
    this.db.run('DELETE FROM object_versions WHERE account = ?', key);
  }
}

/**
 * SQL for the stored data of the object version a row of `table` names (object_seq,
 * version): the object as it is, or a version it replaced. Read it with ObjectStore.decode.
 */
export const versionData = (table: string) =>
  `COALESCE((SELECT o.data FROM objects o WHERE o.seq = ${table}.object_seq AND o.version = ${table}.version),
    (SELECT v.data FROM object_versions v WHERE v.object_seq = ${table}.object_seq AND v.version = ${table}.version))`;
