import type { BaseObject, ListPage } from '../../domain/common.js';
import { notFound } from '../../domain/errors.js';
import type { EventType } from '../../domain/events.js';
import { newId, type ObjectKind } from '../../domain/ids.js';
import type { ServiceEvent } from '../events/log.js';
import type { ReaderConnections } from '../hub/readers.js';
import type { Account } from '../store/accounts.js';
import type { Store } from '../store/index.js';
import { enqueueDeliveries } from './webhook-endpoints.js';

/**
 * What a service sees of one request: the account, the test clock's `now`, and the
 * store bound to that account. Services are synchronous and never see HTTP.
 */
export class ServiceContext {
  constructor(
    readonly store: Store,
    readonly account: Account,
    /** The account's test-clock instant, ISO 8601. */
    readonly now: string,
    /** Live terminal reader connections (whether a reader is online; pushes to it). */
    readonly readers: ReaderConnections,
  ) {}

  /** The clock's UTC date, YYYY-MM-DD. */
  get today(): string {
    return this.now.slice(0, 10);
  }

  /** A new object of `kind` with the fields every object carries. */
  create<T extends BaseObject>(kind: ObjectKind, fields: Omit<T, keyof BaseObject>): T {
    const object = { id: newId(kind), object: kind, created: this.now, livemode: false, ...fields } as T;
    return this.store.objects.insert(this.account.id, object);
  }

  update<T extends BaseObject>(object: T): T {
    return this.store.objects.update(this.account.id, object);
  }

  find<T extends BaseObject>(kind: ObjectKind, id: string): T | undefined {
    return this.store.objects.find<T>(this.account.id, kind, id);
  }

  /** The object, or the service's 404 naming `param`. */
  get<T extends BaseObject>(kind: ObjectKind, id: string, param = 'id'): T {
    const object = this.find<T>(kind, id);
    if (!object) throw notFound(kind, id, param);
    return object;
  }

  list<T extends BaseObject>(
    kind: ObjectKind,
    options: { limit: number; starting_after?: string | undefined; filters?: Record<string, string | undefined> },
  ): ListPage<T> {
    return this.store.objects.list<T>(this.account.id, kind, options);
  }

  /** Deletes an object; the service's 404 naming `param` when there is none. */
  remove(kind: ObjectKind, id: string, param = 'id'): void {
    if (!this.store.objects.remove(this.account.id, kind, id)) throw notFound(kind, id, param);
  }

  /** Appends an event to the log and queues its webhook deliveries, in this transaction. */
  emit(type: EventType, object: BaseObject, extra: Record<string, unknown> = {}): ServiceEvent {
    const event = this.store.events.append(this.account.id, type, object, this.now, extra);
    enqueueDeliveries(this, event);
    return event;
  }

  /** Work to do once this request's transaction has committed. */
  afterCommit(callback: () => void): void {
    this.store.db.onCommit(callback);
  }
}
