import type { BaseObject, ListPage } from '../../domain/common.js';
import { ApiError, clip } from '../../domain/errors.js';
import type { Database } from './db.js';

/** Filter columns are field names of stored objects; only these shapes reach SQL. */
const FIELD = /^[a-z_]+$/;

/**
 * Resources are stored as JSON documents keyed by id, with an insertion sequence that
 * orders lists (newest first) and anchors cursors, so a cursor stays stable while the
 * objects it passed change status.
 */
export class ObjectStore {
  constructor(private readonly db: Database) {}

  insert<T extends BaseObject>(account: string, object: T): T {
    this.db.run('INSERT INTO objects (id, account, kind, data) VALUES (?, ?, ?, ?)', object.id, account, object.object, JSON.stringify(object));
    return object;
  }

  /** Replaces the object; the version it replaces is kept, for the events and stored responses that name it. */
  update<T extends BaseObject>(account: string, object: T): T {
    this.keepVersion(account, object.id);
    const { changes } = this.db.run('UPDATE objects SET data = ?, version = version + 1 WHERE id = ? AND account = ?', JSON.stringify(object), object.id, account);
    if (Number(changes) !== 1) throw new Error(`update of missing object ${object.id}`);
    return object;
  }

  private keepVersion(account: string, id: string): void {
    this.db.run('INSERT INTO object_versions (object_seq, version, account, data) SELECT seq, version, account, data FROM objects WHERE id = ? AND account = ?', id, account);
  }

  find<T extends BaseObject>(account: string, kind: string, id: string): T | undefined {
    const row = this.db.get<{ data: string }>('SELECT data FROM objects WHERE id = ? AND account = ? AND kind = ?', id, account, kind);
    return row ? (JSON.parse(row.data) as T) : undefined;
  }

  /** The account an object belongs to: for pages whose URL is the capability (hosted checkout). */
  ownerOf(kind: string, id: string): string | undefined {
    return this.db.get<{ account: string }>('SELECT account FROM objects WHERE id = ? AND kind = ?', id, kind)?.account;
  }

  list<T extends BaseObject>(
    account: string,
    kind: string,
    options: { limit: number; starting_after?: string | undefined; filters?: Record<string, string | undefined> },
  ): ListPage<T> {
    const where = ['account = ?', 'kind = ?'];
    const params: Array<string | number> = [account, kind];
    for (const [field, value] of Object.entries(options.filters ?? {})) {
      if (value === undefined) continue;
      if (!FIELD.test(field)) throw new Error(`bad filter field ${field}`);
      where.push(`json_extract(data, '$.${field}') = ?`);
      params.push(value);
    }
    if (options.starting_after !== undefined) {
      const cursor = this.db.get<{ seq: number }>(
        'SELECT seq FROM objects WHERE id = ? AND account = ? AND kind = ?',
        options.starting_after, account, kind,
      );
      if (!cursor) {
        throw new ApiError(400, 'parameter_invalid', `Invalid starting_after: no ${kind} '${clip(options.starting_after)}' to page after.`, { param: 'starting_after' });
      }
      where.push('seq < ?');
      params.push(cursor.seq);
    }
    params.push(options.limit + 1);
    const rows = this.db.all<{ data: string }>(
      `SELECT data FROM objects WHERE ${where.join(' AND ')} ORDER BY seq DESC LIMIT ?`,
      ...params,
    );
    const has_more = rows.length > options.limit;
    return { object: 'list', data: rows.slice(0, options.limit).map((r) => JSON.parse(r.data) as T), has_more };
  }

  /** Deletes one object; false when there was none. */
  remove(account: string, kind: string, id: string): boolean {
    this.keepVersion(account, id);
    return Number(this.db.run('DELETE FROM objects WHERE id = ? AND account = ? AND kind = ?', id, account, kind).changes) === 1;
  }

  /** Deletes every object of an account (sandbox reset). */
  clear(account: string): void {
    this.db.run('DELETE FROM objects WHERE account = ?', account);
    this.db.run('DELETE FROM object_versions WHERE account = ?', account);
  }
}

/**
 * SQL for the JSON text of the object version a row of `table` names (object_seq,
 * version): the object as it is, or a version it replaced.
 */
export const versionData = (table: string) =>
  `COALESCE((SELECT o.data FROM objects o WHERE o.seq = ${table}.object_seq AND o.version = ${table}.version),
    (SELECT v.data FROM object_versions v WHERE v.object_seq = ${table}.object_seq AND v.version = ${table}.version))`;
