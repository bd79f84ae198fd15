import { isDeepStrictEqual } from 'node:util';
import { addDays, dueDates, firstIndexOnOrAfter, type IntervalUnit } from '../../src/domain/schedule.js';

// The invariants of a sandbox after load and crashes, checked on what the API shows (its
// lists, paged with starting_after), what the clients were answered, and what the
// webhook receivers got. `check` returns every violation found, in words; none is a pass.

/** The metadata field the load test stores each create's idempotency key in. */
export const KEY_FIELD = 'reliability_key';

export type Obj = { id: string; object: string; created: string; metadata?: Record<string, string> } & Record<string, any>;
export type Ev = { id: string; type: string; created: string; data: { object: Obj } & Record<string, any> };

export const KINDS = ['customer', 'payment_method', 'payment_intent', 'charge', 'refund', 'subscription', 'checkout_session', 'webhook_endpoint'] as const;
export type Kind = (typeof KINDS)[number];

/** One account as listed through the API. */
export interface AccountState {
  account: string;
  /** The test clock's now. */
  clockNow: string;
  objects: Record<Kind, Obj[]>;
  /** GET /v1/events paged to the end: newest first. */
  events: Ev[];
}

/** A write's final answer (after its retries), as the client saw it. */
export interface Write {
  account: string;
  /** `POST /v1/customers`, for messages. */
  request: string;
  key?: string | undefined;
  status: number;
  /** The object the answer names (its id, or a declined intent's), when it names one. */
  objectId?: string | undefined;
  /** Fields that object must have now (a paid checkout session is complete). */
  expect?: Record<string, unknown> | undefined;
}

/** One request a webhook receiver got. */
export interface Receipt {
  endpointId: string;
  webhookId: string;
  verified: boolean;
  body: string;
}

export interface World {
  accounts: AccountState[];
  writes: Write[];
  receipts: Receipt[];
}

const KIND_OF_PREFIX: Record<string, Kind> = { cus: 'customer', pm: 'payment_method', pi: 'payment_intent', ch: 'charge', re: 'refund', sub: 'subscription', cs: 'checkout_session', we: 'webhook_endpoint' };
export const kindOfId = (id: string): Kind | undefined => KIND_OF_PREFIX[id.slice(0, id.indexOf('_'))];

/**
 * The event that records an object's creation, by kind: the id of the object it creates,
 * or undefined. Kinds absent here (payment methods, checkout sessions, webhook endpoints)
 * have no creation event. A refund is created done (charge.refunded naming it) or pending
 * on a reader (charge.refund.pending, its own snapshot; its charge.refunded comes later).
 */
function creationEvents(events: readonly Ev[]): Partial<Record<Kind, (event: Ev) => string | undefined>> {
  const pending = new Set(events.filter((e) => e.type === 'charge.refund.pending').map((e) => e.data.object.id));
  return {
    customer: (e) => (e.type === 'customer.created' ? e.data.object.id : undefined),
    payment_intent: (e) => (e.type === 'payment_intent.created' ? e.data.object.id : undefined),
    subscription: (e) => (e.type === 'subscription.created' ? e.data.object.id : undefined),
    // A charge is created by an attempt, which ends in exactly one of these.
    charge: (e) => (e.type === 'charge.succeeded' || e.type === 'charge.failed' ? e.data.object.id : undefined),
    refund: (e) => {
      if (e.type === 'charge.refund.pending') return e.data.object.id;
      const id = e.data.refund_id as string | undefined;
      return e.type === 'charge.refunded' && id !== undefined && !pending.has(id) ? id : undefined;
    },
  };
}

/** Kinds of which every change emits an event carrying the object: the newest event holds its current state. */
const EVENT_SOURCED: readonly Kind[] = ['customer', 'payment_intent', 'charge', 'subscription'];
const FINAL_INTENT = new Set(['succeeded', 'canceled']);

export function matchesPattern(pattern: string, type: string): boolean {
  return pattern === '*' || pattern === type || (pattern.endsWith('.*') && type.startsWith(pattern.slice(0, -1)));
}

export function check(world: World): string[] {
  const violations: string[] = [];
  const fail = (message: string) => violations.push(message);
  for (const state of world.accounts) {
    const where = `account ${state.account}`;
    const byId = new Map<string, Obj>();
    for (const kind of KINDS) for (const object of state.objects[kind]) byId.set(object.id, object);
    checkKeys(state, fail);
    checkMoney(state, fail);
    checkEvents(state, byId, fail);
    checkSubscriptions(state, fail);
    // Every answered write's object is there, as the answer said.
    for (const write of world.writes.filter((w) => w.account === state.account)) {
      if (write.objectId === undefined) continue;
      const object = byId.get(write.objectId);
      if (!object) {
        fail(`${where}: ${write.request} (key ${write.key ?? 'none'}) was answered ${write.status} naming ${write.objectId}, which the lists do not hold`);
        continue;
      }
      for (const [field, value] of Object.entries(write.expect ?? {})) {
        if (!isDeepStrictEqual(object[field], value)) fail(`${where}: ${write.objectId} has ${field} ${JSON.stringify(object[field])}, not ${JSON.stringify(value)} as ${write.request} answered`);
      }
    }
    checkWebhooks(state, world.receipts, fail);
  }
  return violations;
}

/** Every idempotency key produced at most one object (a subscription's payments copy its metadata, so they are left out). */
function checkKeys(state: AccountState, fail: (m: string) => void): void {
  for (const kind of KINDS) {
    const seen = new Map<string, string>();
    for (const object of state.objects[kind]) {
      const key = object.metadata?.[KEY_FIELD];
      if (key === undefined || (kind === 'payment_intent' && object.subscription_id)) continue;
      const first = seen.get(key);
      if (first !== undefined) fail(`account ${state.account}: key ${key} produced two ${kind}s, ${first} and ${object.id}`);
      else seen.set(key, object.id);
    }
  }
}

/** Charges sum to what each intent received; refunds stay within what was captured; a capture at most once. */
function checkMoney(state: AccountState, fail: (m: string) => void): void {
  const where = `account ${state.account}`;
  const chargesOf = groupBy(state.objects.charge, (c) => c.payment_intent_id as string);
  for (const intent of state.objects.payment_intent) {
    const charges = chargesOf.get(intent.id) ?? [];
    const succeeded = charges.filter((c) => c.status === 'succeeded');
    const captured = succeeded.reduce((sum, c) => sum + (c.amount_captured as number), 0);
    if (captured !== intent.amount_received) fail(`${where}: ${intent.id} received ${intent.amount_received} but its succeeded charges captured ${captured}`);
    if (succeeded.length > 1) fail(`${where}: ${intent.id} has ${succeeded.length} succeeded charges (${succeeded.map((c) => c.id).join(', ')})`);
  }
  const refundsOf = groupBy(state.objects.refund, (r) => r.charge_id as string);
  for (const charge of state.objects.charge) {
    const refunds = refundsOf.get(charge.id) ?? [];
    const done = refunds.filter((r) => r.status === 'succeeded').reduce((sum, r) => sum + (r.amount as number), 0);
    const held = done + refunds.filter((r) => r.status === 'pending').reduce((sum, r) => sum + (r.amount as number), 0);
    if (held > charge.amount_captured) fail(`${where}: ${charge.id} captured ${charge.amount_captured} but has ${held} refunded or pending`);
    if (done !== charge.amount_refunded) fail(`${where}: ${charge.id} says amount_refunded ${charge.amount_refunded}, its succeeded refunds sum to ${done}`);
  }
  const byIntent = (type: string) => groupBy(state.events.filter((e) => e.type === type), (e) => e.data.payment_intent_id as string);
  for (const [intent, events] of byIntent('charge.captured')) if (events.length > 1) fail(`${where}: ${intent} was captured ${events.length} times`);
  for (const [intent, events] of byIntent('payment_intent.succeeded')) if (events.length > 1) fail(`${where}: ${intent} succeeded ${events.length} times`);
}

/**
 * The event log, per account: no event twice across pages; newest first in test-clock
 * time; each event's object exists; each object's creation has exactly one creation
 * event; and no gap: the events of an object are in order, and the newest one holds the
 * object as it is now (a change without its event would leave an older state there).
 */
function checkEvents(state: AccountState, byId: Map<string, Obj>, fail: (m: string) => void): void {
  const where = `account ${state.account}`;
  const ids = new Set<string>();
  let previous: Ev | undefined;
  for (const event of state.events) {
    if (ids.has(event.id)) fail(`${where}: event ${event.id} is listed twice`);
    ids.add(event.id);
    if (previous && Date.parse(event.created) > Date.parse(previous.created)) fail(`${where}: event ${event.id} (${event.created}) is listed after the later ${previous.id} (${previous.created})`);
    previous = event;
    const object = event.data.object;
    if (KINDS.includes(object.object as Kind) && !byId.has(object.id)) fail(`${where}: event ${event.id} (${event.type}) names ${object.id}, which does not exist`);
    if (typeof event.data.refund_id === 'string' && !byId.has(event.data.refund_id)) fail(`${where}: event ${event.id} names refund ${event.data.refund_id}, which does not exist`);
  }
  const oldestFirst = [...state.events].reverse();
  for (const [kind, created] of Object.entries(creationEvents(oldestFirst)) as Array<[Kind, (e: Ev) => string | undefined]>) {
    const count = new Map<string, number>();
    for (const event of oldestFirst) {
      const id = created(event);
      if (id !== undefined) count.set(id, (count.get(id) ?? 0) + 1);
    }
    for (const object of state.objects[kind]) {
      const n = count.get(object.id) ?? 0;
      if (n !== 1) fail(`${where}: ${kind} ${object.id} has ${n} creation events`);
    }
  }
  const snapshots = groupBy(oldestFirst, (e) => e.data.object.id);
  for (const kind of EVENT_SOURCED) {
    for (const object of state.objects[kind]) {
      const events = snapshots.get(object.id) ?? [];
      const last = events.at(-1);
      if (last && !isDeepStrictEqual(last.data.object, object)) fail(`${where}: the newest event of ${object.id} (${last.id}, ${last.type}) does not hold its current state: an event is missing`);
      if (kind === 'payment_intent') {
        const final = events.findIndex((e) => FINAL_INTENT.has(e.data.object.status));
        const after = final === -1 ? undefined : events.slice(final + 1).find((e) => e.data.object.status !== events[final]!.data.object.status);
        if (after) fail(`${where}: ${object.id} was ${events[final]!.data.object.status} (${events[final]!.id}) and later ${after.data.object.status} (${after.id})`);
      }
    }
  }
}

/** Each subscription has one payment per due date reached, in schedule order, none twice, none skipped. */
function checkSubscriptions(state: AccountState, fail: (m: string) => void): void {
  const where = `account ${state.account}`;
  const today = state.clockNow.slice(0, 10);
  const intentsOf = groupBy(state.objects.payment_intent.filter((pi) => pi.subscription_id), (pi) => pi.subscription_id as string);
  for (const sub of state.objects.subscription) {
    const unit = sub.interval_unit as IntervalUnit;
    const dates = (intentsOf.get(sub.id) ?? []).map((pi) => pi.created.slice(0, 10)).sort();
    if (new Set(dates).size !== dates.length) fail(`${where}: ${sub.id} was charged twice for a due date (${dates.join(', ')})`);
    const reached = firstIndexOnOrAfter(sub.billing_cycle_anchor, unit, sub.interval_count, addDays(today, 1));
    const schedule = dueDates(sub.billing_cycle_anchor, unit, sub.interval_count, reached);
    const expected = sub.status === 'active' || sub.status === 'pending' ? schedule : schedule.slice(0, dates.length);
    if (!isDeepStrictEqual(dates, expected)) fail(`${where}: ${sub.id} (${sub.status}) was charged for [${dates.join(', ')}], due [${expected.join(', ')}] by ${today}`);
  }
}

/** Every endpoint got every event it subscribes to, signed; the receiver's dedup by webhook-id sees each once. */
function checkWebhooks(state: AccountState, receipts: Receipt[], fail: (m: string) => void): void {
  const where = `account ${state.account}`;
  const events = new Map(state.events.map((e) => [e.id, e]));
  for (const endpoint of state.objects.webhook_endpoint) {
    const got = receipts.filter((r) => r.endpointId === endpoint.id);
    const dedup = new Map<string, unknown>();
    for (const receipt of got) {
      if (!receipt.verified) fail(`${where}: ${endpoint.id} got ${receipt.webhookId} with a signature that does not verify`);
      const body = JSON.parse(receipt.body) as Ev;
      if (body.id !== receipt.webhookId) fail(`${where}: ${endpoint.id} got webhook-id ${receipt.webhookId} carrying event ${body.id}`);
      const known = dedup.get(receipt.webhookId);
      if (known !== undefined && !isDeepStrictEqual(known, body)) fail(`${where}: ${endpoint.id} got two different bodies for ${receipt.webhookId}`);
      dedup.set(receipt.webhookId, body);
      const event = events.get(body.id);
      if (!event) fail(`${where}: ${endpoint.id} got ${body.id}, not an event of this account`);
      else if (!isDeepStrictEqual(event, body)) fail(`${where}: ${endpoint.id} got ${body.id} unlike the log's`);
    }
    const wanted = state.events.filter((e) => (endpoint.enabled_events as string[]).some((p) => matchesPattern(p, e.type)));
    const missing = wanted.filter((e) => !dedup.has(e.id));
    if (missing.length > 0) fail(`${where}: ${endpoint.id} never got ${missing.length} of its ${wanted.length} events (${missing.slice(0, 3).map((e) => `${e.id} ${e.type}`).join(', ')}…)`);
    if (dedup.size !== wanted.length - missing.length) fail(`${where}: ${endpoint.id}'s receiver deduplicated ${dedup.size} events, ${wanted.length - missing.length} expected`);
  }
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
