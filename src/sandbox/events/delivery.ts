import { Agent } from 'undici';
import type { Scheduler, Timer } from '../../infra/time.js';
import { postSignedEvent } from '../../infra/webhook-post.js';
import type { ServiceContext } from '../services/context.js';
import { disableWebhookEndpoint } from '../services/webhook-endpoints.js';
import type { Account } from '../store/accounts.js';
import type { DueDelivery } from '../store/deliveries.js';
import type { Store } from '../store/index.js';

/**
 * Seconds before each retry (DESIGN section 6): 1 s, 5 s, 30 s, 2 min, 10 min, 1 h, then
 * hourly until 24 h after the first, in real time.
 */
export const RETRY_DELAYS_S: readonly number[] = [1, 5, 30, 120, 600, 3600, ...Array<number>(23).fill(3600)];

/** A drop of the system clock against the monotonic one smaller than this is drift, not a reset: due times stay. */
const CLOCK_SET_BACK_MS = 1000;

export interface DeliveryTiming {
  /**
   * Multiplies every retry delay; 1 in normal use. Tests shorten the schedule with it
   * (`PAY_SANDBOX_RETRY_SCALE=0.001` makes 1 s into 1 ms), keeping its shape.
   */
  retryScale: number;
  /** How long an endpoint may take to answer before the attempt counts as failed. */
  timeoutMs: number;
  /** Attempts in flight at once, across endpoints. */
  concurrency: number;
}

export const DEFAULT_DELIVERY_TIMING: DeliveryTiming = { retryScale: 1, timeoutMs: 10_000, concurrency: 16 };

/**
 * Attempts in flight to one endpoint at most: one that holds its answers (up to the
 * timeout) would otherwise take every slot, and every other endpoint, of every account,
 * would wait behind it.
 */
const PER_ENDPOINT = 4;

/** The delay before retry n (1-based), with ±20 % jitter so retries do not arrive in step. */
export function retryDelayMs(retry: number, scale: number, random = Math.random): number | undefined {
  const seconds = RETRY_DELAYS_S[retry - 1];
  if (seconds === undefined) return undefined;
  return seconds * 1000 * scale * (0.8 + 0.4 * random());
}

/**
 * Sends queued deliveries: signed (Standard Webhooks, webhook-id = the event id),
 * at least once, retried on a timeout or a non-2xx answer per the schedule; 410 disables
 * the endpoint. It works from the deliveries table alone, after commit and off the
 * request path, so a slow endpoint never holds up the request that caused the event and
 * a restarted sandbox picks up whatever was still due.
 */
export class DeliveryWorker {
  private readonly inFlight = new Map<number, { done: Promise<void>; abort: AbortController; endpoint: string }>();
  private readonly agent: Agent;
  private timer: Timer | undefined;
  private started = false;
  private stopped = false;
  /** The system clock less the monotonic one, at the last kick: a drop is the system clock set back. */
  private skew: number;

  constructor(
    private readonly store: Store,
    /** A service context of the account, for the endpoint a 410 disables. */
    private readonly contextOf: (account: Account) => ServiceContext,
    private readonly scheduler: Scheduler,
    private readonly timing: DeliveryTiming = DEFAULT_DELIVERY_TIMING,
  ) {
    this.agent = new Agent({ connect: { timeout: timing.timeoutMs }, headersTimeout: timing.timeoutMs, bodyTimeout: timing.timeoutMs });
    this.skew = scheduler.now() - scheduler.monotonic();
  }

  /** Sends what is due now and from then on; until then, kick() does nothing. */
  start(): void {
    this.started = true;
    this.kick();
  }

  /** Stops sending; attempts cut short stay due and run after the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.timer?.cancel();
    for (const { abort } of this.inFlight.values()) abort.abort();
    await Promise.allSettled([...this.inFlight.values()].map((f) => f.done));
    await this.agent.close();
  }

  /** Looks for deliveries due (new ones were queued, an attempt ended, a retry came due). */
  readonly kick = (): void => {
    if (!this.started || this.stopped) return;
    const deliveries = this.store.deliveries;
    const now = this.scheduler.now();
    const skew = now - this.scheduler.monotonic();
    // Due times are system-clock times (they outlive the process): with that clock set
    // back (NTP, a VM resumed), each retry would wait as much longer; they move back with it.
    if (skew < this.skew - CLOCK_SET_BACK_MS) deliveries.shiftPending(skew - this.skew);
    this.skew = skew;
    let free = this.timing.concurrency - this.inFlight.size;
    const busy = new Map<string, number>();
    for (const { endpoint } of this.inFlight.values()) busy.set(endpoint, (busy.get(endpoint) ?? 0) + 1);
    while (free > 0) {
      const full = [...busy].filter(([, n]) => n >= PER_ENDPOINT).map(([endpoint]) => endpoint);
      const found = deliveries.due(now, free, new Set(this.inFlight.keys()), full);
      let started = 0;
      for (const due of found) {
        const count = busy.get(due.endpoint_id) ?? 0;
        if (count >= PER_ENDPOINT) continue;
        busy.set(due.endpoint_id, count + 1);
        this.send(due);
        started++;
      }
      free -= started;
      // All taken: there was no more, or no room. Some left: their endpoint filled up; look past it.
      if (started === found.length) break;
    }
    // Due work beyond the concurrency is picked up as attempts finish; the timer is for later work.
    this.timer?.cancel();
    const next = deliveries.nextDueAfter(now);
    if (next !== undefined) this.timer = this.scheduler.after(next - now, this.kick);
  };

  private send(due: DueDelivery): void {
    const abort = new AbortController();
    const done = this.attempt(due, abort.signal).finally(() => {
      this.inFlight.delete(due.id);
      this.kick();
    });
    this.inFlight.set(due.id, { done, abort, endpoint: due.endpoint_id });
  }

  private async attempt(due: DueDelivery, signal: AbortSignal): Promise<void> {
    const store = this.store;
    const event = store.events.find(due.account, due.event_id);
    const secret = store.deliveries.secretOf(due.account, due.endpoint_id);
    if (!event || !secret) {
      // The account was reset or the endpoint deleted under this delivery.
      store.db.transaction(() => {
        store.deliveries.record(due.id, due.attempts, { status: 'canceled' });
        // Or its secret was sealed with a key file since lost: left enabled, the endpoint
        // would take every later event and deliver none, with no word why.
        const account = store.accounts.byId(due.account);
        if (!secret && account) disableWebhookEndpoint(this.contextOf(account), due.endpoint_id, 'its signing secret was sealed with a key file since lost: create a new endpoint');
      });
      return;
    }
    const attempt = await postSignedEvent(due.url, event, secret, { dispatcher: this.agent, userAgent: 'pay-sandbox-webhooks', timeoutMs: this.timing.timeoutMs, signal }).catch(() => undefined);
    // Cut short by stop(): the delivery stays due and runs after the next start.
    if (!attempt) return;
    const attempts = [...due.attempts, attempt];
    const status = attempt.status_code;
    store.db.transaction(() => {
      if (status !== null && status >= 200 && status < 300) return store.deliveries.record(due.id, attempts, { status: 'succeeded' });
      if (status === 410) {
        store.deliveries.record(due.id, attempts, { status: 'failed' });
        const account = store.accounts.byId(due.account);
        if (account) disableWebhookEndpoint(this.contextOf(account), due.endpoint_id, `${due.url} answered 410 Gone at ${attempt.attempted_at}`);
        return;
      }
      const delay = retryDelayMs(attempts.length, this.timing.retryScale);
      store.deliveries.record(due.id, attempts, delay === undefined ? { status: 'failed' } : { retryAt: this.scheduler.now() + delay });
    });
  }
}
