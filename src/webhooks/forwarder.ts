import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Agent } from 'undici';
import type { RequestTrace } from '../client/client.js';
import { type Event, matchesType } from '../domain/events.js';
import { acquireLock } from '../infra/pid-lock.js';
import { type PostAttempt, postSignedEvent } from '../infra/webhook-post.js';
import { ListenerRunningError } from './errors.js';
import { type Pending, pendingOf, type Received, Spool } from './spool.js';
import { lostNotice, type ReadyFrame, reconnectedNotice, resumedNotice, Tunnel } from './tunnel.js';

/** Where events go: every `--forward-to` URL, unless a `--route` pattern claims the type. */
export interface Routing {
  forwardTo: string[];
  routes: Array<{ pattern: string; url: string }>;
}

/** Which URLs an event goes to: the routes that match its type, else the defaults. */
export function targetsOf(routing: Routing, type: string): string[] {
  const routed = routing.routes.filter((r) => matchesType(r.pattern, type)).map((r) => r.url);
  return [...new Set(routed.length > 0 ? routed : routing.forwardTo)];
}

export type DeliveryOutcome = 'delivered' | 'rejected' | 'retrying' | 'app_down' | 'gave_up';

export interface DeliveryResult {
  event_id: string;
  event_type: string;
  url: string;
  status: number | null;
  error: string | null;
  duration_ms: number;
  attempt: number;
  outcome: DeliveryOutcome;
  retry_in_ms: number | null;
}

export interface ReadyInfo {
  secret: string;
  listener: string;
  routing: Routing;
  /** Where this run starts, and why. */
  after: string | null;
  cursor_source: ReadyFrame['cursor_source'];
  backlog: number;
  /** The cursor this run asked to resume after (its spool's), if any. */
  resumed: string | null;
}

/** What the forwarder has to say; the command turns it into lines (only `f.io` writes). */
/** A reconnect, never silent: for a script reading --json as much as for a person. */
export type ConnectionChange =
  | { type: 'disconnected'; reason: string; retry_in_ms: number; was_connected: boolean }
  | { type: 'reconnected'; after: string | null; backlog: number };

export interface ListenSink {
  ready(info: ReadyInfo): void;
  /** An event received; `payload` is it serialised, as it is sent. */
  event(event: Event, targets: string[], resend: boolean, payload: string): void;
  delivery(result: DeliveryResult): void;
  /** The tunnel lost, or got back, its connection: said on stderr as `message`, and to scripts as `change`. */
  connection(change: ConnectionChange, message: string): void;
  /** Other news (an app going down or coming back, a resumption), for stderr. */
  notice(message: string): void;
  warning(message: string): void;
}

export interface ForwarderOptions {
  baseUrl: string;
  headers: Record<string, string>;
  listenerId: string;
  secret: string;
  spoolFile: string;
  routing: Routing;
  /** Only these types are sent by the service. */
  types?: string[] | undefined;
  /** Replay from this event (included), whatever the cursor. */
  from?: string | undefined;
  forwardHeaders: Record<string, string>;
  timeoutMs: number;
  skipVerify: boolean;
  giveUpAfterMs?: number | undefined;
  /** End the run once nothing happened for this long: no event received or settled, no delivery in flight. */
  exitAfterIdleMs?: number | undefined;
  /** End the run once this many events are settled (acknowledged). */
  maxEvents?: number | undefined;
  sink: ListenSink;
  /** `--verbose`: the tunnel's upgrade requests and answers. */
  trace?: RequestTrace | undefined;
}

/** Events in the spool for a URL the run does not forward to: kept, and how to deliver them. */
export const waitingElsewhere = (target: string, events: number) =>
  `${events === 1 ? '1 event' : `${events} events`} from an earlier run ${events === 1 ? 'waits' : 'wait'} in the spool for ${target}, which this run does not forward to: a pay webhooks listen with --forward-to ${target} delivers ${events === 1 ? 'it' : 'them'}.`;

/** Why a run ended: stop() (an interrupt), idle for exitAfterIdleMs, or maxEvents settled. */
export type RunEnd = 'stopped' | 'idle' | 'max_events';

/** Backoff of one event whose app answered 5xx (or timed out): 0.5 s doubling to 30 s. */
const EVENT_BACKOFF_MS = { first: 500, max: 30_000 };
/** Probing an app that is down (connection refused, 502/503/504): 100 ms doubling to 2 s. */
const DOWN_BACKOFF_MS = { first: 100, max: 2_000 };
/** An event the app keeps failing is given up (and acknowledged) after this long. */
export const GIVE_UP_AFTER_MS = 24 * 3_600_000;
/** On stop, deliveries in flight get this long to finish before they are left to the next run. */
const FLUSH_MS = 2_000;
/**
 * Delivered events are let go of (one spool transaction) and acknowledged (one frame) in
 * batches gathered this long: per answer, the commit and the frame cost more than the
 * delivery, and at 10 ms they were still a seventh of a burst's time (a frame is a
 * syscall, a commit a WAL write). Only an ack is delayed, never a delivery; a lost ack
 * (listen killed within the batch) only means a replay.
 */
const SETTLE_MS = 50;
/**
 * Deliveries in flight to one app at a time, so its answers' round trips overlap. As
 * TCP's congestion window (Reno): a target starts at WINDOW.start and gains one for each
 * answer that did not wait long at the app (one a round trip once it was halved), up to
 * WINDOW.max; an answer that waited longer than --timeout / WAITED_TOO_LONG, or none within
 * --timeout, halves it (once a round trip, down to 1). An answer waited as much longer as
 * it took than the app's fastest in FASTEST_FOR_MS: an app slow at everything but
 * answering many at once keeps its window; one handling events one at a time, say one a
 * second, keeps only a few in flight, so none waits there long enough to time out and be
 * sent twice. A fast app soon has WINDOW.max in flight: on a busy machine round trips
 * include waits for the CPU, and 16 left listen idle between answers.
 */
const WINDOW = { start: 16, max: 64 };
const WAITED_TOO_LONG = 8;
const FASTEST_FOR_MS = 10_000;
/**
 * A target's events waiting in the spool are kept in memory up to about this many
 * (more when that many are backing off); beyond, they stay on disk until there is room.
 * Events not spooled are kept up to as many: from half as many, the tunnel is not read
 * until there is room again (the service's log keeps what is not read yet).
 */
const IN_MEMORY = 1_000;
/**
 * An event the app has not taken this long after it arrived is spooled (as one it failed
 * is at once): the cursor moves past it, and a restart does not replay what came after.
 */
const UNSPOOLED_MS = 1_000;
const APP_DOWN_STATUSES = new Set([502, 503, 504]);
/** TLS errors of an app whose certificate is not trusted (a local app's is often self-signed): --skip-verify takes it. */
const UNTRUSTED_CERTIFICATE = new Set(['DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_HAS_EXPIRED', 'ERR_TLS_CERT_ALTNAME_INVALID']);
/** 4xx answers worth retrying; any other 4xx is the app refusing the event for good. */
const RETRYABLE_4XX = new Set([408, 425, 429]);

/** What an app's answer means for the event. */
export function classify(status: number | null, error: string | null): Exclude<DeliveryOutcome, 'gave_up'> {
  if (status !== null && status >= 200 && status < 300) return 'delivered';
  if (status !== null && status >= 400 && status < 500 && !RETRYABLE_4XX.has(status)) return 'rejected';
  if ((status === null && error !== 'timeout') || (status !== null && APP_DOWN_STATUSES.has(status))) return 'app_down';
  return 'retrying';
}

const backoff = (base: { first: number; max: number }, n: number) => Math.min(base.first * 2 ** Math.max(0, n - 1), base.max) * (0.8 + Math.random() * 0.4);

interface TargetState {
  url: string;
  /** Consecutive failed probes while the app is down (0 when it is up). */
  down: number;
  /**
   * The target's spooled events not yet finished, in spool order, by event id: the spool's
   * rows up to `loadedSeq`, or all of them when `complete`.
   */
  waiting: Map<string, Pending>;
  loadedSeq: number;
  complete: boolean;
  /** Events in flight: not sent again meanwhile. */
  inFlight: Set<string>;
  /** The next look at what waits: a retry coming due, or the next probe of an app that is down. */
  timer: NodeJS.Timeout | undefined;
  /** A look at what waits is already due this turn of the event loop. */
  pumping: boolean;
  /** How many deliveries may be in flight (WINDOW): its whole part. */
  window: number;
  /** Up to here the window gains one an answer, beyond it one a round trip: where it was last halved to. */
  threshold: number;
  /** When the window was last halved (performance.now()): an answer to a delivery sent before then does not halve it again. */
  halvedAt: number;
  /** The app's fastest answer (ms) in FASTEST_FOR_MS, and when it came: what one takes there without waiting. */
  fastest: { ms: number; at: number };
}

/** An event of this run, in log order, not spooled: the service's log holds it after the spool's cursor. */
interface Unspooled {
  id: string;
  /** performance.now(): a wall clock set back would hold its spooling off for as long. */
  receivedAt: number;
  /** Its deliveries not finished yet. */
  pendings: Pending[];
}

/**
 * The engine of `pay webhooks listen` (as stripe-cli's proxy is of its listen): the
 * tunnel brings the account's events in log order; each is forwarded, signed with the
 * profile's listen secret, to its targets, and acknowledged upstream once every target
 * took it (2xx), refused it for good (another 4xx) or was given up on. Nothing is lost
 * if listen dies: the spool's cursor never passes an event that is neither finished nor
 * spooled, so the next run gets it again from the service's log. An event the app takes
 * at once is never written to the spool; one it fails, or has not taken within
 * UNSPOOLED_MS, is spooled (and the cursor moves past it), and so is everything when there
 * is no room in memory, or the run stops or reconnects. Per target, events go out oldest
 * first, a window of them in flight (WINDOW): an app that is down is probed with its
 * oldest event, one at a time, and once back receives the rest in order; an event the app
 * fails (5xx, timeout) backs off on its own so later ones go ahead. What is sent comes
 * from memory; the spool is read only for what an earlier run left or what did not fit
 * in memory.
 */
export class Forwarder {
  /** Opened by run() once it holds the spool's lock: a listen refused never touches it. */
  private spool!: Spool;
  private readonly tunnel: Tunnel;
  private readonly agent: Agent;
  private readonly targets = new Map<string, TargetState>();
  private readonly deliveries = new Set<Promise<void>>();
  /** Aborted when stop() stops waiting for the deliveries in flight. */
  private readonly flush = new AbortController();
  /** Received and not yet taken in: taken together once the current burst of frames is read. */
  private received: Received[] = [];
  /** In-order events taken in and not spooled, oldest first, by id; each leaves once finished or spooled. */
  private readonly unspooled = new Map<string, Unspooled>();
  /** The newest in-order event received: where a reconnect resumes (what came before is in memory or spooled). */
  private receivedAfter: string | undefined;
  /** Where the spool's cursor may stand: every in-order event received up to it is finished or spooled. */
  private settledAfter: string | undefined;
  /** Where the spool's cursor stands. */
  private cursorKept: string | undefined;
  /** The service's log this connection streams (its ready frame's `log`). */
  private connectionLog: string | undefined;
  /** The log `receivedAfter ?? cursorKept` is an event of, named with it: after `other_log`, the old one until an event of the new one comes. */
  private log: string | undefined;
  /** The tunnel is not read while there is no room for more unspooled events. */
  private paused = false;
  /** Delivered (or refused, or given up), spooled, and not yet let go by the spool. */
  private finished: Pending[] = [];
  /** Events finished that were never spooled: acknowledged with the next batch. */
  private finishedUnspooled: string[] = [];
  private settleTimer: NodeJS.Timeout | undefined;
  private spoolClosed = true;
  private stopping = false;
  private stopped: Promise<number> | undefined;
  private started = false;
  /** --from holds until this run has a cursor of its own. */
  private from: string | undefined;
  private resumedFrom: string | undefined;
  private ended: RunEnd = 'stopped';
  private idleTimer: NodeJS.Timeout | undefined;
  /** Events forwarded and acknowledged this run: one no route takes is acknowledged, not counted (--max-events counts forwarded ones). */
  private settledCount = 0;
  /**
   * Acks held while the spool has no cursor (a run from the start of the log): a listen
   * killed then resumes from the service's cursor, which an ack would move past an event
   * still in memory. They go with the settle that writes the first cursor.
   */
  private unacknowledged: string[] = [];
  /** How many of those were forwarded. */
  private unacknowledgedForwarded = 0;
  /** Per event and target, the last answer when it was not a 2xx; removed once one is. */
  private readonly failing = new Map<string, DeliveryResult>();
  /** Releases the spool's lock: one listen of a profile at a time, or each would forward the other's events. */
  private unlock: (() => Promise<void>) | undefined;
  /** The targets of each event type (targetsOf), worked out once a type: a run sees few types and many events. */
  private readonly targetsByType = new Map<string, string[]>();

  constructor(private readonly options: ForwarderOptions) {
    this.from = options.from;
    this.agent = new Agent({
      connect: { timeout: Math.min(options.timeoutMs, 10_000), rejectUnauthorized: !options.skipVerify },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
    this.tunnel = new Tunnel({
      baseUrl: options.baseUrl,
      headers: options.headers,
      giveUpAfterMs: options.giveUpAfterMs,
      trace: options.trace,
      query: () => this.query(),
      handlers: {
        ready: (frame, reconnected) => this.onReady(frame, reconnected),
        event: (event, resend) => this.onEvent(event, resend),
        lost: (reason, retryInMs, wasConnected) =>
          this.options.sink.connection({ type: 'disconnected', reason, retry_in_ms: retryInMs, was_connected: wasConnected }, lostNotice(options.baseUrl, reason, retryInMs, wasConnected)),
      },
    });
  }

  /**
   * Runs until stop(), until idle or maxEvents (resolves with why), or until the tunnel
   * gives up or is refused (rejects).
   */
  async run(): Promise<RunEnd> {
    try {
      mkdirSync(dirname(this.options.spoolFile), { recursive: true, mode: 0o700 });
      this.unlock = await acquireLock(`${this.options.spoolFile}.lock`, (locked) => new ListenerRunningError(locked));
      this.spool = new Spool(this.options.spoolFile);
      this.spoolClosed = false;
      this.cursorKept = this.spool.cursor;
      this.log = this.spool.log;
      this.resumedFrom = this.options.from === undefined ? this.cursorKept : undefined;
      await this.tunnel.run();
    } finally {
      await this.stop();
    }
    return this.ended;
  }

  /**
   * What stop() left in the spool: events waiting for this run's URLs, and per URL it does
   * not forward to, the events an earlier run left for it.
   */
  left: { events: number; elsewhere: Array<{ target: string; events: number }> } = { events: 0, elsewhere: [] };

  /** Events forwarded and acknowledged this run. */
  get settled(): number {
    return this.settledCount;
  }

  /** Deliveries whose last answer was not a 2xx: refused, given up on, or still failing when the run ended. */
  failures(): DeliveryResult[] {
    return [...this.failing.values()];
  }

  /**
   * Stops receiving, gives deliveries in flight a moment to finish, keeps the rest
   * spooled for the next run. Resolves to how many events wait there.
   */
  stop(): Promise<number> {
    this.stopped ??= (async () => {
      this.stopping = true;
      clearTimeout(this.idleTimer);
      this.tunnel.stop();
      const flush = setTimeout(() => this.flush.abort(), FLUSH_MS);
      for (const target of this.targets.values()) clearTimeout(target.timer);
      await Promise.allSettled(this.deliveries);
      clearTimeout(flush);
      this.takeReceived();
      this.spoolUnspooled();
      this.settle();
      await this.agent.close();
      let waiting = 0;
      if (!this.spoolClosed) {
        waiting = this.spool.count();
        this.left = this.spool.waitingFor(this.targetUrls());
        this.spool.close();
        this.spoolClosed = true;
      }
      await this.unlock?.();
      return waiting;
    })();
    return this.stopped;
  }

  private query(): Record<string, string | undefined> {
    const where = this.from !== undefined ? { from: this.from } : { after: this.receivedAfter ?? this.cursorKept, log: this.log };
    return { listener: this.options.listenerId, types: this.options.types?.join(','), ...where };
  }

  /** Forwarding starts with the first connection, so nothing is said before Ready. */
  /** Every URL this run forwards to. */
  private targetUrls(): string[] {
    return [...new Set([...this.options.routing.forwardTo, ...this.options.routing.routes.map((r) => r.url)])];
  }

  private startForwarding(): void {
    this.started = true;
    for (const url of this.targetUrls()) {
      this.targets.set(url, { url, down: 0, waiting: new Map(), loadedSeq: 0, complete: false, inFlight: new Set(), timer: undefined, pumping: false, window: WINDOW.start, threshold: WINDOW.max, halvedAt: -Infinity, fastest: { ms: Infinity, at: 0 } });
    }
    for (const target of this.targets.values()) this.pumpNow(target);
  }

  private onReady(frame: ReadyFrame, reconnected: boolean): void {
    // Streaming resumes after frame.after, or at the start of another log: what came before and is not finished waits in the spool (with its log).
    if (frame.after !== null || frame.cursor_source === 'other_log') this.spoolUnspooled();
    this.spool.cursorLog = this.connectionLog = frame.log;
    if (frame.after !== null) {
      this.spool.cursor = frame.after;
      this.receivedAfter = this.settledAfter = this.cursorKept = frame.after;
      this.log = frame.log;
      this.from = undefined;
    }
    // A new connection is read from the start.
    this.paused = false;
    const sink = this.options.sink;
    if (frame.cursor_source === 'after_gone') {
      const since = frame.backlog === 0 ? 'nothing was logged after it' : `delivering the ${frame.backlog === 1 ? 'event' : `${frame.backlog} events`} logged after it`;
      sink.warning(`The service no longer has the event this listener stopped at (was the account reset?): ${since}.`);
    } else if (frame.cursor_source === 'unknown_after') {
      sink.warning(`The service does not know the event this listener stopped at (another database?): resuming ${frame.after ? `after ${frame.after}` : 'from the start'}.`);
    } else if (frame.cursor_source === 'other_log') {
      sink.warning(`The service's event log is not the one this listener stopped in (was the sandbox started again with a new database?): delivering its events from the start (${frame.backlog === 0 ? 'none yet' : frame.backlog === 1 ? '1 event' : `${frame.backlog} events`}).`);
    }
    if (reconnected) {
      sink.connection({ type: 'reconnected', after: frame.after, backlog: frame.backlog }, reconnectedNotice(frame));
      return;
    }
    sink.ready({
      secret: this.options.secret,
      listener: this.options.listenerId,
      routing: this.options.routing,
      after: frame.after,
      cursor_source: frame.cursor_source,
      backlog: frame.backlog,
      resumed: this.resumedFrom ?? null,
    });
    const resumed = frame.cursor_source === 'after' || frame.cursor_source === 'listener';
    if (resumed && frame.after !== null) sink.notice(resumedNotice(frame));
    else if (frame.cursor_source === 'from') sink.notice(`Replaying from ${this.options.from}: ${frame.backlog} events.`);
    const { events: waiting, elsewhere } = this.spool.waitingFor(this.targetUrls());
    if (waiting > 0) sink.notice(waiting === 1 ? '1 event from an earlier run waits in the spool: delivering it first.' : `${waiting} events from an earlier run wait in the spool: delivering them first.`);
    // Kept, never dropped: they go out once a run forwards to their URL again.
    for (const { target, events } of elsewhere) sink.warning(waitingElsewhere(target, events));
    if (!this.started) {
      this.startForwarding();
      this.active();
    }
  }

  /** Ends the run for a reason of its own; stop() then flushes as on an interrupt. */
  private end(reason: RunEnd): void {
    if (this.stopping || this.ended !== 'stopped') return;
    this.ended = reason;
    this.tunnel.stop();
  }

  /** Something happened: the idle countdown starts again. */
  private active(): void {
    const idleMs = this.options.exitAfterIdleMs;
    if (idleMs === undefined || this.stopping) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      // A delivery still waiting for the app's answer is not idleness.
      if ([...this.targets.values()].some((target) => target.inFlight.size > 0)) this.active();
      else this.end('idle');
    }, idleMs);
  }

  /** Acknowledges these events, of which `forwarded` went to a target (the others no route takes). */
  private acknowledge(ids: string[], forwarded = ids.length): void {
    if (this.cursorKept === undefined) {
      if (ids.length === 0) return;
      this.unacknowledged.push(...ids);
      this.unacknowledgedForwarded += forwarded;
      if (!this.stopping) this.settleSoon();
      return;
    }
    if (this.unacknowledged.length > 0) {
      ids = [...this.unacknowledged.splice(0), ...ids];
      forwarded += this.unacknowledgedForwarded;
      this.unacknowledgedForwarded = 0;
    }
    if (ids.length === 0) return;
    this.tunnel.ack(ids);
    this.settledCount += forwarded;
    this.active();
    if (this.options.maxEvents !== undefined && this.settledCount >= this.options.maxEvents) this.end('max_events');
  }

  private onEvent(event: Event, resend: boolean): void {
    if (!resend) {
      this.receivedAfter = event.id;
      this.log = this.connectionLog;
      this.from = undefined;
    }
    let targets = this.targetsByType.get(event.type);
    if (!targets) {
      targets = targetsOf(this.options.routing, event.type);
      this.targetsByType.set(event.type, targets);
    }
    this.received.push({ event, payload: JSON.stringify(event), targets, inOrder: !resend });
    if (this.received.length === 1) setImmediate(() => this.takeReceived());
    // Half way, and at once: one turn of the event loop reads many frames, and one already on its way still finds room.
    if (!this.paused && this.unspooled.size + this.received.length >= IN_MEMORY / 2) {
      this.paused = true;
      this.tunnel.pause();
    }
  }

  /**
   * Takes in what was received, says so, and sends it on. In-order events wait in memory
   * while every target has room (what a target has waiting in the spool is all in memory,
   * and there is room for more); otherwise everything not spooled is spooled, then they
   * are, as a target reads its spool back in order. A resend, outside the log order, is
   * spooled at once: the cursor does not bring it back.
   */
  private takeReceived(): void {
    const batch = this.received;
    if (batch.length === 0 || this.spoolClosed) return;
    this.received = [];
    // A delivery the target already has waiting in memory is not doubled.
    const deliveries = (received: Received) => received.targets.filter((url) => !this.targets.get(url)!.waiting.has(received.event.id)).map((url) => pendingOf(received, url));
    const now = performance.now();
    const entries: Unspooled[] = [];
    const resent: Pending[] = [];
    const adding = new Map<string, number>();
    for (const received of batch) {
      const pendings = deliveries(received);
      if (!received.inOrder) {
        resent.push(...pendings);
        continue;
      }
      entries.push({ id: received.event.id, receivedAt: now, pendings });
      for (const { target } of pendings) adding.set(target, (adding.get(target) ?? 0) + 1);
    }
    const room = [...adding].every(([url, n]) => {
      const target = this.targets.get(url)!;
      return target.complete && target.waiting.size + n <= IN_MEMORY;
    });
    if (room) {
      for (const entry of entries) {
        this.unspooled.set(entry.id, entry);
        for (const pending of entry.pendings) this.targets.get(pending.target)!.waiting.set(pending.event.id, pending);
      }
    } else if (entries.length > 0) {
      this.spoolUnspooled();
      this.settledAfter = this.cursorKept = entries.at(-1)!.id;
      this.hold(this.spool.keep(entries.flatMap((entry) => entry.pendings), this.cursorKept));
    }
    if (resent.length > 0) {
      // A finished delivery's row stays until the next batch lets it go, and would make a
      // resend of its event look like one already kept: the batch goes first.
      if (this.finished.length > 0) this.settle();
      this.hold(this.spool.keep(resent));
    }
    // Whichever way they went, what paused the tunnel is taken in: read it again if there is room
    // (a burst spooled whole leaves nothing unspooled to finish and resume it later).
    this.advance();
    if (this.unspooled.size > 0) this.settleSoon();
    const touched = new Set<string>();
    const unrouted: string[] = [];
    for (const { event, payload, targets, inOrder } of batch) {
      this.options.sink.event(event, targets, !inOrder, payload);
      if (targets.length === 0) unrouted.push(event.id);
      for (const url of targets) touched.add(url);
    }
    this.acknowledge(unrouted, 0);
    this.active();
    // An app that is down is left to its probe timer, not woken by every new event; unless no
    // probe is coming (its last event was given up): then the new one is the probe.
    for (const url of touched) {
      const target = this.targets.get(url);
      if (target && (target.down === 0 || (target.timer === undefined && target.inFlight.size === 0))) this.pumpNow(target);
    }
  }

  /** Spooled deliveries are kept in memory while everything their target has waiting is, up to IN_MEMORY; else read back when there is room. */
  private hold(added: Pending[]): void {
    for (const pending of added) {
      const target = this.targets.get(pending.target)!;
      if (target.complete && target.waiting.size < IN_MEMORY) {
        target.waiting.set(pending.event.id, pending);
        target.loadedSeq = pending.seq;
      } else {
        target.complete = false;
      }
    }
  }

  /**
   * Spools the oldest unspooled events, through the one with id `through` (all of them
   * without it): their deliveries not finished yet, which stay in memory. The cursor
   * moves past them.
   */
  private spoolUnspooled(through?: string): void {
    if (this.unspooled.size === 0) return;
    const pendings: Pending[] = [];
    for (const entry of this.unspooled.values()) {
      this.unspooled.delete(entry.id);
      this.settledAfter = entry.id;
      pendings.push(...entry.pendings);
      if (entry.id === through) break;
    }
    this.advance();
    this.cursorKept = this.settledAfter;
    for (const pending of this.spool.keep(pendings, this.cursorKept)) {
      // Already in memory, so not to be read back; when its target's spool is not all in memory it may be, and replaces itself by id.
      const target = this.targets.get(pending.target)!;
      if (target.complete) target.loadedSeq = Math.max(target.loadedSeq, pending.seq);
    }
  }

  /** The oldest unspooled events that are finished are let go: the cursor may pass them. */
  private advance(): void {
    for (const entry of this.unspooled.values()) {
      if (entry.pendings.length > 0) break;
      this.unspooled.delete(entry.id);
      this.settledAfter = entry.id;
    }
    if (this.paused && this.unspooled.size < IN_MEMORY / 4) {
      this.paused = false;
      this.tunnel.resume();
    }
  }

  /**
   * Looks at what waits once this turn of the event loop is done: the answers that arrive
   * together share one look, not one each.
   */
  private pump(target: TargetState): void {
    if (target.pumping) return;
    target.pumping = true;
    setImmediate(() => {
      target.pumping = false;
      this.pumpNow(target);
    });
  }

  /** Sends the target's due events, oldest first, while the window has room; else looks again when the next is due. */
  private pumpNow(target: TargetState): void {
    if (this.stopping || this.spoolClosed) return;
    clearTimeout(target.timer);
    target.timer = undefined;
    const room = (target.down > 0 ? 1 : Math.floor(target.window)) - target.inFlight.size;
    if (room <= 0) return;
    const now = Date.now();
    const { due, next } = this.due(target, now, room);
    for (const pending of due) {
      const delivery = this.forward(target, pending).finally(() => this.deliveries.delete(delivery));
      this.deliveries.add(delivery);
    }
    // Nothing out: look again when the next event is due.
    if (target.inFlight.size === 0 && next !== undefined) target.timer = setTimeout(() => this.pumpNow(target), next - now);
  }

  /**
   * Up to `room` of the target's events due at `now` and not in flight, oldest first
   * (reading more from the spool while it holds some not in memory), and when the first
   * of the others is due.
   */
  private due(target: TargetState, now: number, room: number): { due: Pending[]; next: number | undefined } {
    const due: Pending[] = [];
    let next: number | undefined;
    let candidates: Iterable<Pending> = target.waiting.values();
    for (;;) {
      for (const pending of candidates) {
        if (target.inFlight.has(pending.event.id)) continue;
        if (pending.nextAttemptAt > now) {
          next = Math.min(next ?? Infinity, pending.nextAttemptAt);
          continue;
        }
        due.push(pending);
        if (due.length === room) return { due, next };
      }
      if (target.complete) return { due, next };
      const loaded = this.spool.load(target.url, target.loadedSeq, IN_MEMORY);
      for (const pending of loaded) target.waiting.set(pending.event.id, pending);
      if (loaded.length > 0) target.loadedSeq = loaded.at(-1)!.seq;
      target.complete = loaded.length < IN_MEMORY;
      candidates = loaded;
    }
  }

  private async forward(target: TargetState, pending: Pending): Promise<void> {
    const probe = target.down > 0;
    const attemptNumber = pending.attempts + 1;
    target.inFlight.add(pending.event.id);
    const at = Date.now();
    const sentAt = performance.now();
    const attempt = await postSignedEvent(target.url, pending.event, this.options.secret, {
      dispatcher: this.agent,
      userAgent: 'pay-webhooks-listen',
      timeoutMs: this.options.timeoutMs,
      headers: this.options.forwardHeaders,
      payload: pending.payload,
      signal: this.flush.signal,
    }).catch(() => undefined);
    target.inFlight.delete(pending.event.id);
    // Cut short by stop(): it stays spooled for the next run.
    if (!attempt) return;
    this.adjustWindow(target, sentAt, attempt);
    let outcome: DeliveryOutcome = classify(attempt.status_code, attempt.error);
    let retryIn: number | null = null;
    // An event the app failed is spooled, with those before it, before its retry is noted there.
    if ((outcome === 'app_down' || outcome === 'retrying') && this.unspooled.has(pending.event.id)) this.spoolUnspooled(pending.event.id);
    if (outcome === 'delivered' || outcome === 'rejected') {
      this.finish(target, pending);
      if (target.down > 0) {
        // Finished events leave the spool in the next batch: they are not waiting; unspooled ones are.
        const unspooled = [...target.waiting.values()].filter((waiting) => waiting.seq === 0).length;
        const waiting = this.spool.count(target.url) - this.finished.filter((done) => done.target === target.url).length + unspooled;
        const rest = waiting === 0 ? '.' : `: delivering the ${waiting === 1 ? 'event' : `${waiting} events`} waiting for it.`;
        this.options.sink.notice(`${target.url} is answering again${rest}`);
      }
      target.down = 0;
    } else if (pending.firstAttemptAt !== null && at - pending.firstAttemptAt >= GIVE_UP_AFTER_MS) {
      outcome = 'gave_up';
      this.finish(target, pending);
    } else if (outcome === 'app_down') {
      if (target.down === 0) {
        const untrusted = attempt.error !== null && UNTRUSTED_CERTIFICATE.has(attempt.error) ? ' Its TLS certificate is not trusted: run pay webhooks listen with --skip-verify to accept it.' : '';
        this.options.sink.notice(`${target.url} is not answering (${attempt.error ?? `HTTP ${attempt.status_code}`}): its events wait in the spool and go out, oldest first, once it answers.${untrusted}`);
      }
      // The rest of the window failing with it is the same news, not more failed probes.
      if (probe || target.down === 0) target.down++;
      retryIn = backoff(DOWN_BACKOFF_MS, target.down);
      // Still due at once: the oldest event is the probe when the app is back.
      this.spool.retry(pending, at, at);
    } else {
      retryIn = backoff(EVENT_BACKOFF_MS, attemptNumber);
      this.spool.retry(pending, at, Date.now() + retryIn);
    }
    const result: DeliveryResult = {
      event_id: pending.event.id,
      event_type: pending.event.type,
      url: target.url,
      status: attempt.status_code,
      error: attempt.error,
      duration_ms: attempt.duration_ms,
      attempt: attemptNumber,
      outcome,
      retry_in_ms: retryIn === null ? null : Math.round(retryIn),
    };
    const key = `${result.event_id} ${result.url}`;
    if (outcome === 'delivered') this.failing.delete(key);
    else this.failing.set(key, result);
    // While an app stays down, its probes are news only the first time.
    if (outcome !== 'app_down' || (target.down === 1 && (probe || target.inFlight.size === 0))) this.options.sink.delivery(result);
    if (outcome !== 'app_down') this.pump(target);
    else if (target.inFlight.size === 0 && !this.stopping) {
      clearTimeout(target.timer);
      target.timer = setTimeout(() => this.pumpNow(target), retryIn ?? 0);
    }
  }

  /** WINDOW's rule: more for an answer that did not wait long, half for one that did or for none (once a round trip). */
  private adjustWindow(target: TargetState, sentAt: number, attempt: PostAttempt): void {
    const now = performance.now();
    const took = now - sentAt;
    const { fastest } = target;
    if (attempt.status_code !== null && (took <= fastest.ms || now - fastest.at > FASTEST_FOR_MS)) target.fastest = { ms: took, at: now };
    if (attempt.error === 'timeout' || (took - target.fastest.ms) * WAITED_TOO_LONG > this.options.timeoutMs) {
      if (sentAt < target.halvedAt) return;
      target.window = target.threshold = Math.max(1, target.window / 2);
      target.halvedAt = now;
    } else if (attempt.status_code !== null) {
      target.window = Math.min(WINDOW.max, target.window + (target.window < target.threshold ? 1 : 1 / target.window));
    }
  }

  /** The target is done with the event: it waits no more, and leaves the spool with the next batch (if it is there). */
  private finish(target: TargetState, pending: Pending): void {
    target.waiting.delete(pending.event.id);
    const entry = pending.seq === 0 ? this.unspooled.get(pending.event.id) : undefined;
    const at = entry?.pendings.indexOf(pending) ?? -1;
    if (entry && at >= 0) {
      entry.pendings.splice(at, 1);
      if (entry.pendings.length === 0) {
        this.finishedUnspooled.push(entry.id);
        this.advance();
      }
    } else if (pending.seq !== 0) {
      this.finished.push(pending);
    }
    this.settleSoon();
  }

  private settleSoon(): void {
    this.settleTimer ??= setTimeout(() => this.settle(), SETTLE_MS);
  }

  /**
   * Spools what the app has not taken within UNSPOOLED_MS; lets go of what was finished
   * and moves the cursor, in one transaction; then acknowledges each event no target
   * still waits for. Again in SETTLE_MS while anything unspooled waits.
   */
  private settle(): void {
    clearTimeout(this.settleTimer);
    this.settleTimer = undefined;
    if (this.spoolClosed) return;
    const old = performance.now() - UNSPOOLED_MS;
    let through: string | undefined;
    for (const entry of this.unspooled.values()) {
      if (entry.receivedAt > old) break;
      through = entry.id;
    }
    if (through !== undefined) this.spoolUnspooled(through);
    const batch = this.finished;
    this.finished = [];
    const cursor = this.settledAfter !== this.cursorKept ? this.settledAfter : undefined;
    this.cursorKept = this.settledAfter ?? this.cursorKept;
    const settled = this.spool.done(batch, cursor);
    const unspooled = this.finishedUnspooled;
    this.finishedUnspooled = [];
    this.acknowledge([...settled, ...unspooled]);
    if (this.unspooled.size > 0) this.settleSoon();
  }
}
