import type { BaseObject, ListPage } from '../../domain/common.js';
import { ApiError, clip } from '../../domain/errors.js';
import type { Event, EventListQuery, EventType } from '../../domain/events.js';
import { rowId, rowOf } from '../../domain/ids.js';
import type { DurableMark, HeldTable } from '../../infra/sqlite.js';
import type { AccountStore } from './accounts.js';
import type { Database } from './db.js';
import { type ObjectStore, versionData } from './objects.js';

/** Events are inserted late (Sqlite.hold): those of one request in one statement. */
const EVENTS: HeldTable = { name: 'events', columns: ['seq', 'account', 'type', 'created', 'id', 'object_seq', 'version', 'data'] };

/** Event types and `family.*` patterns of the catalogue carry no GLOB metacharacter but `*`. */
const typeClause = (patterns: readonly string[]) => `(${patterns.map(() => 'type GLOB ?').join(' OR ')})`;

/** An event row: `data` is the whole event, or (when `object` names a stored version) the rest of its data, if any. */
const COLUMNS = `seq, id, type, created, data, ${versionData('events')} AS object`;
interface EventRow {
  seq: number;
  id: string;
  type: EventType;
  created: string;
  data: string | null;
  object: string | null;
}

/**
 * One ordered log per account. An event is written in the transaction of the change that
 * causes it; its id names its row (rowId). What goes out of the sandbox live (a listen
 * tunnel's stream) goes only up to the newest event on disk: a tunnel is never sent an
 * event that a crash of the machine could still take back.
 */
export class EventLog {
  private nextSeq: number;
  /** This log's identity (log_…), minted with the database: a position means something in this log only. */
  readonly identity: string;
  /** The newest position on disk: every event at or below it is. */
  private readonly onDisk: DurableMark;

  constructor(
    private readonly db: Database,
    private readonly accounts: AccountStore,
    private readonly objects: ObjectStore,
  ) {
    // Past every position used: those of erased events (clear) too.
    this.nextSeq = db.get<{ top: number }>('SELECT max(coalesce((SELECT max(seq) FROM events), 0), coalesce((SELECT top FROM erased_events), 0)) AS top')!.top + 1;
    this.onDisk = db.mark(() => this.nextSeq - 1);
    this.identity = db.get<{ identity: string }>('SELECT identity FROM event_log')!.identity;
  }

  append(account: string, type: EventType, object: BaseObject, created: string, extra: Record<string, unknown> = {}): Event {
    const seq = this.nextSeq++;
    const event: Event = {
      id: rowId('event', seq),
      object: 'event',
      type,
      created,
      livemode: false,
      data: { object, ...extra },
    };
    const key = this.accounts.keyOf(account);
    // The object as stored (the usual case) is named by its version, not copied.
    const version = this.objects.versionOf(account, object);
    const rest = Object.keys(extra).length > 0 ? this.objects.encode(extra) : null;
    this.db.hold(EVENTS, [seq, key, type, created, event.id, version?.seq ?? null, version?.version ?? null, version ? rest : JSON.stringify(event)]);
    return event;
  }

  private toEvent(row: EventRow): Event {
    if (row.object === null) return JSON.parse(row.data!) as Event;
    const extra = row.data === null ? {} : this.objects.decode<Record<string, unknown>>(row.data);
    return { id: row.id, object: 'event', type: row.type, created: row.created, livemode: false, data: { object: this.objects.decode<BaseObject>(row.object), ...extra } };
  }

  /** The event's row, or undefined: its id names it, or (ids minted before migration 6) legacy_ids does. */
  private row(account: string, id: string): EventRow | undefined {
    const key = this.accounts.keyOf(account);
    const read = (seq: number) => this.db.get<EventRow>(`SELECT ${COLUMNS} FROM events WHERE seq = ? AND id = ? AND account = ?`, seq, id, key);
    const row = read(rowOf(id));
    if (row) return row;
    const legacy = this.db.get<{ seq: number }>('SELECT seq FROM legacy_ids WHERE id = ?', id);
    return legacy && read(legacy.seq);
  }

  find(account: string, id: string): Event | undefined {
    const row = this.row(account, id);
    return row && this.toEvent(row);
  }

  /** Sequence number of an event, the cursor of lists and of the listen tunnel. */
  seqOf(account: string, id: string): number | undefined {
    return this.row(account, id)?.seq;
  }

  /**
   * Where the id of an event this log erased (an account reset erases events, never
   * positions) says it stood: undefined for any other string, a position the log has not
   * reached (an id of another database), or one an event still holds (another account's
   * event is told from a made-up id by nothing).
   */
  positionOf(id: string): number | undefined {
    if (!/^evt_[A-Za-z0-9]{24}$/.test(id)) return undefined;
    const seq = rowOf(id);
    if (seq <= 0 || seq >= this.nextSeq) return undefined;
    return this.db.get('SELECT 1 AS one FROM events WHERE seq = ?', seq) === undefined ? seq : undefined;
  }

  /** The newest event's position on disk (0 when there is none) and id. */
  latest(account: string): { seq: number; id: string | null } {
    const key = this.accounts.keyOf(account);
    const row = this.db.durableRead(() => this.db.get<{ seq: number; id: string }>('SELECT seq, id FROM events WHERE account = ? AND seq <= ? ORDER BY seq DESC LIMIT 1', key, this.onDisk.durable));
    return row ?? { seq: 0, id: null };
  }

  /** The id of the newest event at or before seq. */
  idAtOrBefore(account: string, seq: number): string | null {
    return this.db.get<{ id: string }>('SELECT id FROM events WHERE account = ? AND seq <= ? ORDER BY seq DESC LIMIT 1', this.accounts.keyOf(account), seq)?.id ?? null;
  }

  list(account: string, query: EventListQuery): ListPage<Event> {
    const where = ['account = ?'];
    const params: Array<string | number> = [this.accounts.keyOf(account)];
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
        throw new ApiError(400, 'parameter_invalid', `Invalid starting_after: no event '${clip(query.starting_after)}' to page after.`, { param: 'starting_after' });
      }
      where.push('seq < ?');
      params.push(seq);
    }
    params.push(query.limit + 1);
    const rows = this.db.all<EventRow>(`SELECT ${COLUMNS} FROM events WHERE ${where.join(' AND ')} ORDER BY seq DESC LIMIT ?`, ...params);
    return {
      object: 'list',
      data: rows.slice(0, query.limit).map((row) => this.toEvent(row)),
      has_more: rows.length > query.limit,
    };
  }

  /** Events after a cursor up to the newest on disk, oldest first: what a tunnel sends. */
  after(account: string, afterSeq: number, limit: number): Array<{ seq: number; event: Event }> {
    const upTo = this.onDisk.durable;
    // Woken by each event's commit, a tunnel mostly has sent all there is already.
    if (afterSeq >= upTo) return [];
    const key = this.accounts.keyOf(account);
    return this.db.durableRead(() =>
      this.db
        .all<EventRow>(`SELECT ${COLUMNS} FROM events WHERE account = ? AND seq > ? AND seq <= ? ORDER BY seq ASC LIMIT ?`, key, afterSeq, upTo, limit)
        .map((row) => ({ seq: row.seq, event: this.toEvent(row) })),
    );
  }

  /** How many events after a cursor, up to the newest on disk, match the patterns (all when none). */
  countAfter(account: string, afterSeq: number, patterns: readonly string[] | undefined): number {
    const filter = patterns?.length ? ` AND ${typeClause(patterns)}` : '';
    const key = this.accounts.keyOf(account);
    return this.db.durableRead(() => this.db.get<{ n: number }>(`SELECT count(*) AS n FROM events WHERE account = ? AND seq > ? AND seq <= ?${filter}`, key, afterSeq, this.onDisk.durable, ...(patterns ?? []))!.n);
  }

  clear(account: string): void {
    this.db.run('INSERT INTO erased_events (id, top) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET top = max(top, excluded.top)', this.nextSeq - 1);
    this.db.run('DELETE FROM events WHERE account = ?', this.accounts.keyOf(account));
  }
}
