import type { BaseObject, ListPage } from '../../domain/common.js';
import { ApiError } from '../../domain/errors.js';
import type { Event, EventListQuery, EventType } from '../../domain/events.js';
import { newId } from '../../domain/ids.js';
import type { Database } from './db.js';
import { versionData } from './objects.js';

/** Event types and `family.*` patterns of the catalogue carry no GLOB metacharacter but `*`. */
const typeClause = (patterns: readonly string[]) => `(${patterns.map(() => 'type GLOB ?').join(' OR ')})`;

/** An event row: `data` is the whole event, or (when `object` names a stored version) only the rest of its data. */
const COLUMNS = `seq, id, type, created, data, ${versionData('events')} AS object`;
interface EventRow {
  seq: number;
  id: string;
  type: EventType;
  created: string;
  data: string;
  object: string | null;
}

function toEvent(row: EventRow): Event {
  if (row.object === null) return JSON.parse(row.data) as Event;
  const extra = JSON.parse(row.data) as Record<string, unknown>;
  return { id: row.id, object: 'event', type: row.type, created: row.created, livemode: false, data: { object: JSON.parse(row.object) as BaseObject, ...extra } };
}

/** One ordered log per account. An event is written in the transaction of the change that causes it. */
export class EventLog {
  constructor(private readonly db: Database) {}

  append(account: string, type: EventType, object: BaseObject, created: string, extra: Record<string, unknown> = {}): Event {
    const event: Event = {
      id: newId('event'),
      object: 'event',
      type,
      created,
      livemode: false,
      data: { object, ...extra },
    };
    // The object as stored (the usual case) is named by its version, not copied.
    const { changes } = this.db.run(
      `INSERT INTO events (id, account, type, created, data, object_seq, version)
       SELECT ?, ?, ?, ?, ?, seq, version FROM objects WHERE id = ? AND account = ? AND data = ?`,
      event.id, account, type, created, JSON.stringify(extra), object.id, account, JSON.stringify(object),
    );
    if (Number(changes) === 0) {
      this.db.run('INSERT INTO events (id, account, type, created, data) VALUES (?, ?, ?, ?, ?)', event.id, account, type, created, JSON.stringify(event));
    }
    return event;
  }

  find(account: string, id: string): Event | undefined {
    const row = this.db.get<EventRow>(`SELECT ${COLUMNS} FROM events WHERE id = ? AND account = ?`, id, account);
    return row ? toEvent(row) : undefined;
  }

  /** Sequence number of an event, the cursor of lists and of the listen tunnel. */
  seqOf(account: string, id: string): number | undefined {
    return this.db.get<{ seq: number }>('SELECT seq FROM events WHERE id = ? AND account = ?', id, account)?.seq;
  }

  /** The newest event's position (0 when there is none) and id. */
  latest(account: string): { seq: number; id: string | null } {
    const row = this.db.get<{ seq: number; id: string }>('SELECT seq, id FROM events WHERE account = ? ORDER BY seq DESC LIMIT 1', account);
    return row ?? { seq: 0, id: null };
  }

  /** The id of the newest event at or before seq. */
  idAtOrBefore(account: string, seq: number): string | null {
    return this.db.get<{ id: string }>('SELECT id FROM events WHERE account = ? AND seq <= ? ORDER BY seq DESC LIMIT 1', account, seq)?.id ?? null;
  }

  list(account: string, query: EventListQuery): ListPage<Event> {
    const where = ['account = ?'];
    const params: Array<string | number> = [account];
    if (query.type !== undefined) {
      where.push(typeClause([query.type]));
      params.push(query.type);
    }
    const bounds = [['created[gte]', '>='], ['created[gt]', '>'], ['created[lte]', '<='], ['created[lt]', '<']] as const;
    for (const [key, op] of bounds) {
      const value = query[key];
      if (value === undefined) continue;
      // Instants compare as instants, whatever their offset or precision.
      where.push(`julianday(created) ${op} julianday(?)`);
      params.push(value);
    }
    if (query.starting_after !== undefined) {
      const seq = this.seqOf(account, query.starting_after);
      if (seq === undefined) {
        throw new ApiError(400, 'parameter_invalid', `Invalid starting_after: no event '${query.starting_after}'.`, { param: 'starting_after' });
      }
      where.push('seq < ?');
      params.push(seq);
    }
    params.push(query.limit + 1);
    const rows = this.db.all<EventRow>(`SELECT ${COLUMNS} FROM events WHERE ${where.join(' AND ')} ORDER BY seq DESC LIMIT ?`, ...params);
    return {
      object: 'list',
      data: rows.slice(0, query.limit).map(toEvent),
      has_more: rows.length > query.limit,
    };
  }

  /** Events after a cursor, oldest first: what a tunnel replays. */
  after(account: string, afterSeq: number, limit: number): Array<{ seq: number; event: Event }> {
    return this.db
      .all<EventRow>(`SELECT ${COLUMNS} FROM events WHERE account = ? AND seq > ? ORDER BY seq ASC LIMIT ?`, account, afterSeq, limit)
      .map((r) => ({ seq: r.seq, event: toEvent(r) }));
  }

  /** How many events after a cursor match the patterns (all when none). */
  countAfter(account: string, afterSeq: number, patterns: readonly string[] | undefined): number {
    const filter = patterns?.length ? ` AND ${typeClause(patterns)}` : '';
    return this.db.get<{ n: number }>(`SELECT count(*) AS n FROM events WHERE account = ? AND seq > ?${filter}`, account, afterSeq, ...(patterns ?? []))!.n;
  }

  clear(account: string): void {
    this.db.run('DELETE FROM events WHERE account = ?', account);
  }
}
