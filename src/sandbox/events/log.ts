import { EventEmitter } from 'node:events';
import type { BaseObject, ListPage } from '../../domain/common.js';
import { ApiError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import type { Database } from '../store/db.js';

export interface ServiceEvent {
  id: string;
  object: 'event';
  type: string;
  created: string;
  livemode: boolean;
  data: { object: BaseObject } & Record<string, unknown>;
}

/**
 * One ordered log per account. An event is written in the transaction of the change
 * that causes it, and announced on the bus only once that transaction commits.
 */
export class EventLog {
  /** Emits `event` with `(account, event)` after commit. */
  readonly bus = new EventEmitter();

  constructor(private readonly db: Database) {
    this.bus.setMaxListeners(0);
  }

  append(account: string, type: string, object: BaseObject, created: string, extra: Record<string, unknown> = {}): ServiceEvent {
    const event: ServiceEvent = {
      id: newId('event'),
      object: 'event',
      type,
      created,
      livemode: false,
      data: { object, ...extra },
    };
    this.db.run('INSERT INTO events (id, account, type, created, data) VALUES (?, ?, ?, ?, ?)', event.id, account, type, created, JSON.stringify(event));
    this.db.onCommit(() => this.bus.emit('event', account, event));
    return event;
  }

  find(account: string, id: string): ServiceEvent | undefined {
    const row = this.db.get<{ data: string }>('SELECT data FROM events WHERE id = ? AND account = ?', id, account);
    return row ? (JSON.parse(row.data) as ServiceEvent) : undefined;
  }

  /** Sequence number of an event, the cursor of lists and of the listen tunnel. */
  seqOf(account: string, id: string): number | undefined {
    return this.db.get<{ seq: number }>('SELECT seq FROM events WHERE id = ? AND account = ?', id, account)?.seq;
  }

  list(
    account: string,
    options: { limit: number; starting_after?: string | undefined; type?: string | undefined },
  ): ListPage<ServiceEvent> {
    const where = ['account = ?'];
    const params: Array<string | number> = [account];
    if (options.type !== undefined) {
      // `payment_intent.*` matches a family of types.
      if (options.type.endsWith('.*')) {
        where.push('type LIKE ?');
        params.push(`${options.type.slice(0, -1)}%`);
      } else {
        where.push('type = ?');
        params.push(options.type);
      }
    }
    if (options.starting_after !== undefined) {
      const seq = this.seqOf(account, options.starting_after);
      if (seq === undefined) {
        throw new ApiError(400, 'parameter_invalid', `Invalid starting_after: no event '${options.starting_after}'.`, { param: 'starting_after' });
      }
      where.push('seq < ?');
      params.push(seq);
    }
    params.push(options.limit + 1);
    const rows = this.db.all<{ data: string }>(`SELECT data FROM events WHERE ${where.join(' AND ')} ORDER BY seq DESC LIMIT ?`, ...params);
    return {
      object: 'list',
      data: rows.slice(0, options.limit).map((r) => JSON.parse(r.data) as ServiceEvent),
      has_more: rows.length > options.limit,
    };
  }

  /** Events after a cursor, oldest first: what a tunnel replays. */
  after(account: string, afterSeq: number, limit: number): Array<{ seq: number; event: ServiceEvent }> {
    return this.db
      .all<{ seq: number; data: string }>('SELECT seq, data FROM events WHERE account = ? AND seq > ? ORDER BY seq ASC LIMIT ?', account, afterSeq, limit)
      .map((r) => ({ seq: r.seq, event: JSON.parse(r.data) as ServiceEvent }));
  }

  clear(account: string): void {
    this.db.run('DELETE FROM events WHERE account = ?', account);
  }
}
