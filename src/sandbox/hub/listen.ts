/**
 * The listen tunnel: `pay webhooks listen` and `pay events tail` receive an account's
 * events over a WebSocket (DESIGN section 6).
 *
 * Protocol (JSON text frames; types in src/domain/listen.ts):
 *
 *   GET /v1/listen?after=evt_…&log=log_…|from=evt_…&types=a,b.*&listener=lsn_…
 *   with the auth headers of every request (`<prefix>-account`, `<prefix>-api-key`);
 *   a refused upgrade answers with the service's usual error body (401, 403, 400).
 *
 *   server → client  {type:'ready', listener, after, log, cursor_source, backlog, heartbeat_ms}
 *                    once, first: streaming starts after `after` (an event id, or null
 *                    for the start of the log) of the log `log`; `backlog` events are
 *                    already waiting.
 *                    {type:'events', events}  in log order, each event once per connection,
 *                    a batch a frame (up to BATCH; never empty);
 *                    {type:'event', event, resend:true}  `POST /v1/events/{id}/resend`,
 *                    outside the order and the cursor;
 *                    {type:'ping'}            every heartbeat_ms.
 *   client → server  {type:'ack', ids}        the client is done with these events (its app
 *                    answered 2xx, refused them for good, or it gave up);
 *                    {type:'pong'}            answers a ping.
 *
 * Where streaming starts: `from` (that event included), else `after`, else the
 * listener's cursor (the newest event it acknowledged), else the newest event now: a
 * first run gets only what happens after it connects. An `after` the log no longer holds
 * (the account was reset) resumes after the position its id names (`after_gone`); one
 * that names no position of this log falls back like a missing one (`unknown_after`).
 * With `log` (the ready frame's, kept with the cursor), an `after` of another log (the
 * sandbox started again with a new database, whose positions start again) is not looked
 * for: streaming resumes at the listener's cursor in this log, else at its start
 * (`other_log`), as none of its events can be told to come before the client's cursor.
 * Acknowledgements move the listener's cursor forward, never back, and it is kept in the
 * database: a reconnect resumes where the client stopped even if the client lost its own
 * cursor. Without `listener` (`events tail`) nothing is kept.
 *
 * Heartbeats both ways: a connection that has not answered the previous ping when the
 * next is due is closed; a client that has heard nothing for a few heartbeats reconnects.
 */
import type { WebSocket } from 'ws';
import { endpoints } from '../../domain/endpoints.js';
import { ApiError, clip, parseOrThrow } from '../../domain/errors.js';
import { type Event, matchesAny } from '../../domain/events.js';
import { rowOf } from '../../domain/ids.js';
import { type ClientFrame, ListenQuery, type ServerFrame } from '../../domain/listen.js';
import type { Sandbox } from '../sandbox.js';
import type { Account } from '../store/accounts.js';
import { type HubConnection, WebSocketHub } from './hub.js';
import type { UpgradeRouter } from './upgrade.js';

export const DEFAULT_HEARTBEAT_MS = 15_000;
const BATCH = 200;
/** Above this much unsent data a connection's replay waits for the socket to drain. */
const HIGH_WATER = 1024 * 1024;

interface Connection extends HubConnection {
  account: string;
  listener: string | undefined;
  types: string[] | undefined;
  /** The newest log position sent. */
  sentSeq: number;
  start: Start;
  pumping: boolean;
  again: boolean;
}

type Start = { seq: number; source: Extract<ServerFrame, { type: 'ready' }>['cursor_source'] };

export class ListenHub extends WebSocketHub<Connection, ServerFrame> {
  constructor(sandbox: Sandbox, upgrades: UpgradeRouter, heartbeatMs = DEFAULT_HEARTBEAT_MS) {
    super(sandbox, upgrades, endpoints.listen.path, heartbeatMs);
  }

  protected accept({ id: account }: Account, url: URL): (ws: WebSocket) => Connection {
    const query = parseOrThrow(ListenQuery, Object.fromEntries(url.searchParams));
    const start = this.startOf(account, query);
    return (ws) => ({ ws, account, listener: query.listener, types: query.types, sentSeq: start.seq, start, alive: true, pumping: false, again: false });
  }

  private startOf(account: string, query: ListenQuery): Start {
    const log = this.sandbox.store.events;
    if (query.from !== undefined) {
      const seq = log.seqOf(account, query.from);
      if (seq === undefined) throw new ApiError(400, 'parameter_invalid', `Invalid from: no event '${clip(query.from)}' in this account's log.`, { param: 'from' });
      return { seq: seq - 1, source: 'from' };
    }
    let unknownAfter = false;
    // Positions start again in a new log: one of another log says nothing of where the client stood in this one.
    const otherLog = query.after !== undefined && query.log !== undefined && query.log !== log.identity;
    if (query.after !== undefined && !otherLog) {
      const seq = log.seqOf(account, query.after);
      if (seq !== undefined) return { seq, source: 'after' };
      // Gone from the log (the account was reset): its id still says where it stood, and what was logged after it follows.
      const stood = log.positionOf(query.after);
      if (stood !== undefined) return { seq: stood, source: 'after_gone' };
      unknownAfter = true;
    }
    const kept = query.listener === undefined ? undefined : this.sandbox.store.listenCursors.get(account, query.listener);
    if (kept !== undefined) return { seq: kept, source: unknownAfter ? 'unknown_after' : 'listener' };
    if (otherLog) return { seq: 0, source: 'other_log' };
    const latest = log.latest(account).seq;
    // A first run starts now; kept at once, so a reconnect before any event resumes here.
    if (query.listener !== undefined) this.sandbox.store.listenCursors.advance(account, query.listener, latest);
    return { seq: latest, source: unknownAfter ? 'unknown_after' : 'latest' };
  }

  protected connected(connection: Connection): void {
    const { account, start } = connection;
    const log = this.sandbox.store.events;
    this.send(connection, {
      type: 'ready',
      listener: connection.listener ?? null,
      after: log.idAtOrBefore(account, start.seq),
      log: log.identity,
      cursor_source: start.source,
      backlog: log.countAfter(account, start.seq, connection.types),
      heartbeat_ms: this.heartbeatMs,
    });
    void this.pump(connection);
  }

  protected receive(connection: Connection, text: string): void {
    let frame: ClientFrame;
    try {
      frame = JSON.parse(text) as ClientFrame;
    } catch {
      return connection.ws.close(1003, 'frames are JSON');
    }
    if (frame.type !== 'ack' || connection.listener === undefined || !Array.isArray(frame.ids)) return;
    // The cursor only moves forward: the newest event of the batch says it all, in one write.
    const newest = this.newestOf(connection.account, frame.ids.filter((id): id is string => typeof id === 'string'));
    if (newest !== undefined) this.sandbox.store.listenCursors.advance(connection.account, connection.listener, newest);
  }

  /**
   * The position of the newest of these ids that is an event of the account. Ids are
   * looked up newest first, by the row each names (rowId), so a batch of hundreds costs
   * one read, not one for each id (those reads were a twelfth of the sandbox's work while
   * listen drained a backlog). The first id found at the row it names is the newest: an
   * id minted before migration 6 (found through legacy_ids, at a row it does not name)
   * stands before every id that names its row.
   */
  private newestOf(account: string, ids: string[]): number | undefined {
    let newest: number | undefined;
    for (const id of ids.map((id) => ({ id, row: rowOf(id) })).sort((a, b) => b.row - a.row)) {
      const seq = this.sandbox.store.events.seqOf(account, id.id);
      if (seq === undefined) continue;
      if (seq === id.row) return Math.max(seq, newest ?? seq);
      newest = Math.max(seq, newest ?? seq);
    }
    return newest;
  }

  /** Sends what the log holds after the connection's position, in order, in batches. */
  private async pump(connection: Connection): Promise<void> {
    if (connection.pumping) {
      connection.again = true;
      return;
    }
    connection.pumping = true;
    try {
      do {
        connection.again = false;
        for (;;) {
          const rows = this.sandbox.store.events.after(connection.account, connection.sentSeq, BATCH);
          const events = rows.flatMap(({ event }) => (wants(connection, event) ? [event] : []));
          if (events.length > 0) this.send(connection, { type: 'events', events });
          if (rows.length > 0) connection.sentSeq = rows.at(-1)!.seq;
          if (rows.length < BATCH || !open(connection)) break;
          while (open(connection) && connection.ws.bufferedAmount > HIGH_WATER) await new Promise((resolve) => setTimeout(resolve, 10));
        }
      } while (connection.again && open(connection));
    } finally {
      connection.pumping = false;
    }
  }

  /** Sends the account's new events to its tunnels. Runs in a request's commit callbacks: it never throws into it. */
  eventAppended(account: string): void {
    for (const connection of this.connections()) {
      if (connection.account === account) this.pump(connection).catch(() => connection.ws.terminate());
    }
  }

  /**
   * Sends an event again, outside the order and the cursor, to the account's tunnels that
   * want it; how many listeners (which forward it) it reached. A watcher without a
   * listener id (`events tail`) is shown it, but forwards nothing.
   */
  resend(account: string, event: Event): number {
    let reached = 0;
    for (const connection of this.connections()) {
      if (connection.account !== account || !wants(connection, event) || !open(connection)) continue;
      this.send(connection, { type: 'event', event, resend: true });
      if (connection.listener !== undefined) reached++;
    }
    return reached;
  }
}

const open = (connection: Connection) => connection.ws.readyState === connection.ws.OPEN;
const wants = (connection: Connection, event: Event) => connection.types === undefined || matchesAny(connection.types, event.type);
