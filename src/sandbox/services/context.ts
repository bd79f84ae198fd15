import type { BaseObject, ListPage } from '../../domain/common.js';
import { notFound } from '../../domain/errors.js';
import { type Event, type EventType, matchesAny } from '../../domain/events.js';
import type { ObjectKind } from '../../domain/ids.js';
import { MAX_WEBHOOK_ENDPOINTS, type WebhookEndpoint } from '../../domain/webhook-endpoints.js';
import type { Scheduler } from '../../infra/time.js';
import type { Account } from '../store/accounts.js';
import type { Store } from '../store/index.js';
import type { ReaderConnections } from './reader-links.js';

/**
 * What the services tell the live parts above them (listen tunnels, the webhook
 * delivery worker), through callbacks the app factory wires up: services never know who
 * listens. Called after the transaction commits, except `resendToListeners`.
 */
export interface ServiceSinks {
  /** An event was appended to the account's log. */
  eventAppended(account: string, event: Event): void;
  /** Webhook deliveries were queued. */
  deliveriesQueued(): void;
  /** Sends an event again to the account's running listen tunnels; how many it reached. */
  resendToListeners(account: string, event: Event): number;
}

/** Sinks that tell no one: a sandbox with no hubs or delivery worker (benchmarks, unit tests). */
export const NO_SINKS: ServiceSinks = { eventAppended() {}, deliveriesQueued() {}, resendToListeners: () => 0 };

/** The live side of the sandbox a service reaches: readers online, the sinks, real time (webhook deliveries are real time). */
export interface ServiceEnv {
  readers: ReaderConnections;
  sinks: ServiceSinks;
  scheduler: Scheduler;
}

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
    readonly env: ServiceEnv,
  ) {}

  /** The clock's UTC date, YYYY-MM-DD. */
  get today(): string {
    return this.now.slice(0, 10);
  }

  /** A new object of `kind` with the fields every object carries. */
  create<T extends BaseObject>(kind: ObjectKind, fields: Omit<T, keyof BaseObject>): T {
    const object = { id: this.store.objects.newId(kind), object: kind, created: this.now, livemode: false, ...fields } as T;
    this.changing(kind);
    return this.store.objects.insert(this.account.id, object);
  }

  update<T extends BaseObject>(object: T): T {
    this.changing(object.object);
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
    this.changing(kind);
    if (!this.store.objects.remove(this.account.id, kind, id)) throw notFound(kind, id, param);
  }

  /** Appends an event to the log and queues its webhook deliveries, in this transaction. */
  emit(type: EventType, object: BaseObject, extra: Record<string, unknown> = {}): Event {
    const event = this.store.events.append(this.account.id, type, object, this.now, extra);
    this.deliver(event);
    const account = this.account.id;
    this.afterCommit(() => this.env.sinks.eventAppended(account, event));
    return event;
  }

  /**
   * Queues the event, due now (real time), for `only` or else every enabled endpoint that
   * wants its type. Returns the endpoints' ids.
   */
  deliver(event: Event, only?: WebhookEndpoint): string[] {
    const enabled = this.store.enabledEndpoints.get(this.account.id, () =>
      this.list<WebhookEndpoint>('webhook_endpoint', { limit: MAX_WEBHOOK_ENDPOINTS, filters: { status: 'enabled' } }).data,
    )!;
    const endpoints = only ? [only] : enabled.filter((e) => matchesAny(e.enabled_events, event.type));
    const now = this.env.scheduler.now();
    for (const endpoint of endpoints) this.store.deliveries.enqueue(this.account.id, event.id, endpoint, now);
    if (endpoints.length > 0) this.afterCommit(() => this.env.sinks.deliveriesQueued());
    return endpoints.map((e) => e.id);
  }

  private changing(kind: string): void {
    if (kind === 'webhook_endpoint') this.store.enabledEndpoints.delete(this.account.id);
  }

  /** Work to do once this request's transaction has committed. */
  afterCommit(callback: () => void): void {
    this.store.db.onCommit(callback);
  }
}
