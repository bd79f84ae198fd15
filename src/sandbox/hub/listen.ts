/**
 * The listen tunnel: `pay webhooks listen` and `pay events tail` receive an account's
 * events over a WebSocket (DESIGN section 6).
 *
 * Protocol (JSON text frames; types in src/domain/listen.ts):
 *
 *   GET /v1/listen?after=evt_…|from=evt_…&types=a,b.*&listener=lsn_…
 *   with the auth headers of every request (`<prefix>-account`, `<prefix>-api-key`);
 *   a refused upgrade answers with the service's usual error body (401, 403, 400).
 *
 *   server → client  {type:'ready', listener, after, cursor_source, backlog, heartbeat_ms}
 *                    once, first: streaming starts after `after` (an event id, or null
 *                    for the start of the log); `backlog` events are already waiting.
 *                    {type:'event', event}    in log order, each event once per connection;
 *                    {type:'event', event, resend:true}  `POST /v1/events/{id}/resend`,
 *                    outside the order and the cursor;
 *                    {type:'ping'}            every heartbeat_ms.
 *   client → server  {type:'ack', id}         the client is done with this event (its app
 *                    answered 2xx, refused it for good, or it gave up);
 *                    {type:'pong'}            answers a ping.
 *
 * Where streaming starts: `from` (that event included), else `after`, else the
 * listener's cursor (the newest event it acknowledged), else the newest event now: a
 * first run gets only what happens after it connects. An `after` the log does not hold
 * (the account was reset) falls back like a missing one, and `cursor_source` says so.
 * Acknowledgements move the listener's cursor forward, never back, and it is kept in the
 * database: a reconnect resumes where the client stopped even if the client lost its own
 * cursor. Without `listener` (`events tail`) nothing is kept.
 *
 * Heartbeats both ways: a connection that has not answered the previous ping when the
 * next is due is closed; a client that has heard nothing for a few heartbeats reconnects.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { endpoints } from '../../domain/endpoints.js';
import { ApiError, clip, parseOrThrow } from '../../domain/errors.js';
import { type Event, matchesAny } from '../../domain/events.js';
import { type ClientFrame, ListenQuery, type ServerFrame } from '../../domain/listen.js';
import type { ServiceEvent } from '../events/log.js';
import { authenticate } from '../pipeline.js';
import type { Sandbox } from '../sandbox.js';
import type { ResendToListeners } from '../services/events.js';
import { HubConnections } from './connections.js';
import type { UpgradeRouter } from './upgrade.js';

export const DEFAULT_HEARTBEAT_MS = 15_000;
const BATCH = 200;
/** Above this much unsent data a connection's replay waits for the socket to drain. */
const HIGH_WATER = 1024 * 1024;

interface Connection {
  ws: WebSocket;
  account: string;
  listener: string | undefined;
  types: string[] | undefined;
  /** The newest log position sent. */
  sentSeq: number;
  alive: boolean;
  pumping: boolean;
  again: boolean;
}

type Start = { seq: number; source: Extract<ServerFrame, { type: 'ready' }>['cursor_source'] };

export class ListenHub {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  private readonly connections: HubConnections<Connection>;

  constructor(
    private readonly sandbox: Sandbox,
    upgrades: UpgradeRouter,
    private readonly heartbeatMs = DEFAULT_HEARTBEAT_MS,
  ) {
    upgrades.route(endpoints.listen.path, (request, socket, head, url) => this.upgrade(request, socket, head, url));
    sandbox.store.events.bus.on('event', this.onEvent);
    sandbox.store.events.bus.on('resend', this.onResend);
    this.connections = new HubConnections(heartbeatMs, (connection) => send(connection, { type: 'ping' }));
  }

  /** Says goodbye (1001) to every tunnel: clients reconnect to the next sandbox. */
  close(): void {
    this.sandbox.store.events.bus.off('event', this.onEvent);
    this.sandbox.store.events.bus.off('resend', this.onResend);
    this.connections.close();
    this.wss.close();
  }

  private upgrade(request: IncomingMessage, socket: Duplex, head: Buffer, url: URL): void {
    const account = authenticate(this.sandbox, request);
    const query = parseOrThrow(ListenQuery, Object.fromEntries(url.searchParams));
    const start = this.startOf(account.id, query);
    this.wss.handleUpgrade(request, socket, head, (ws) => this.connect(ws, account.id, query, start));
  }

  private startOf(account: string, query: ListenQuery): Start {
    const log = this.sandbox.store.events;
    if (query.from !== undefined) {
      const seq = log.seqOf(account, query.from);
      if (seq === undefined) throw new ApiError(400, 'parameter_invalid', `Invalid from: no event '${clip(query.from)}' in this account's log.`, { param: 'from' });
      return { seq: seq - 1, source: 'from' };
    }
    let unknownAfter = false;
    if (query.after !== undefined) {
      const seq = log.seqOf(account, query.after);
      if (seq !== undefined) return { seq, source: 'after' };
      unknownAfter = true;
    }
    const kept = query.listener === undefined ? undefined : this.sandbox.store.listenCursors.get(account, query.listener);
    if (kept !== undefined) return { seq: kept, source: unknownAfter ? 'unknown_after' : 'listener' };
    const latest = log.latest(account).seq;
    // A first run starts now; kept at once, so a reconnect before any event resumes here.
    if (query.listener !== undefined) this.sandbox.store.listenCursors.advance(account, query.listener, latest);
    return { seq: latest, source: unknownAfter ? 'unknown_after' : 'latest' };
  }

  private connect(ws: WebSocket, account: string, query: ListenQuery, start: Start): void {
    const connection: Connection = {
      ws,
      account,
      listener: query.listener,
      types: query.types,
      sentSeq: start.seq,
      alive: true,
      pumping: false,
      again: false,
    };
    this.connections.add(connection);
    ws.on('message', (data) => this.receive(connection, String(data)));
    ws.on('error', () => ws.terminate());
    const log = this.sandbox.store.events;
    send(connection, {
      type: 'ready',
      listener: query.listener ?? null,
      after: log.idAtOrBefore(account, start.seq),
      cursor_source: start.source,
      backlog: log.countAfter(account, start.seq, query.types),
      heartbeat_ms: this.heartbeatMs,
    });
    void this.pump(connection);
  }

  private receive(connection: Connection, text: string): void {
    connection.alive = true;
    let frame: ClientFrame;
    try {
      frame = JSON.parse(text) as ClientFrame;
    } catch {
      return connection.ws.close(1003, 'frames are JSON');
    }
    if (frame.type !== 'ack' || connection.listener === undefined || typeof frame.id !== 'string') return;
    const seq = this.sandbox.store.events.seqOf(connection.account, frame.id);
    if (seq !== undefined) this.sandbox.store.listenCursors.advance(connection.account, connection.listener, seq);
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
          for (const { seq, event } of rows) {
            if (wants(connection, event)) send(connection, { type: 'event', event });
            connection.sentSeq = seq;
          }
          if (rows.length < BATCH || !open(connection)) break;
          while (open(connection) && connection.ws.bufferedAmount > HIGH_WATER) await new Promise((resolve) => setTimeout(resolve, 10));
        }
      } while (connection.again && open(connection));
    } finally {
      connection.pumping = false;
    }
  }

  // Bus listeners run in the commit callbacks of a request: they must never throw into it.
  private readonly onEvent = (account: string, _event: ServiceEvent): void => {
    for (const connection of this.connections) {
      if (connection.account === account) this.pump(connection).catch(() => connection.ws.terminate());
    }
  };

  private readonly onResend = (request: ResendToListeners): void => {
    for (const connection of this.connections) {
      if (connection.account !== request.account || !wants(connection, request.event) || !open(connection)) continue;
      send(connection, { type: 'event', event: request.event, resend: true });
      request.reached++;
    }
  };
}

const open = (connection: Connection) => connection.ws.readyState === connection.ws.OPEN;
const wants = (connection: Connection, event: Event) => connection.types === undefined || matchesAny(connection.types, event.type);

function send(connection: Connection, frame: ServerFrame): void {
  if (open(connection)) connection.ws.send(JSON.stringify(frame));
}
