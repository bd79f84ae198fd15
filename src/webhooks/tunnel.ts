import WebSocket from 'ws';
import { NetworkError } from '../client/errors.js';
import { serviceUrl } from '../client/url.js';
import { toApiError } from '../client/client.js';
import { endpoints } from '../domain/endpoints.js';
import type { Event } from '../domain/events.js';
import type { ClientFrame, ServerFrame } from '../domain/listen.js';
import { describeError } from './post.js';

export type ReadyFrame = Extract<ServerFrame, { type: 'ready' }>;

const events = (n: number) => `${n} event${n === 1 ? '' : 's'}`;

/** How a reconnect is announced (never silently): where streaming resumed, how much was replayed. */
export const reconnectedNotice = (frame: ReadyFrame) =>
  `Reconnected: resumed after ${frame.after ?? 'the start of the log'}, ${events(frame.backlog)} replayed.`;

/** How a lost (or refused) connection is announced, with when the next try is. */
export const lostNotice = (baseUrl: string, reason: string, retryInMs: number, wasConnected: boolean) =>
  `${wasConnected ? 'Lost the connection to' : 'Could not connect to'} ${baseUrl} (${reason}): reconnecting in ${(retryInMs / 1000).toFixed(1)}s…`;

/** How resuming a run is announced. */
export const resumedNotice = (frame: ReadyFrame) => `Resumed after ${frame.after}, ${events(frame.backlog)} replayed.`;

export interface TunnelHandlers {
  /** The service accepted the tunnel; `reconnected` after a lost connection. */
  ready(frame: ReadyFrame, reconnected: boolean): void;
  event(event: Event, resend: boolean): void;
  /** The tunnel is down (or could not be opened); the next try is in `retryInMs`. */
  lost(reason: string, retryInMs: number, wasConnected: boolean): void;
}

export interface TunnelOptions {
  baseUrl: string;
  headers: Record<string, string>;
  /** The query of each connection: it changes as the cursor moves. */
  query: () => Record<string, string | undefined>;
  /** Stop reconnecting once the service has been unreachable this long (NetworkError). */
  giveUpAfterMs?: number | undefined;
  handlers: TunnelHandlers;
}

const FIRST_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 5_000;
/** Until the ready frame names the heartbeat, a silent connection is given this long. */
const OPEN_TIMEOUT_MS = 15_000;
/** A connection silent for this many heartbeats is dead. */
const MISSED_HEARTBEATS = 3;
/** Answers that retrying will not change. */
const FATAL_STATUSES = new Set([400, 401, 403, 404]);

/**
 * The client end of the listen tunnel (protocol in src/sandbox/hub/listen.ts): opens it,
 * answers pings, notices a silent service, and reconnects with backoff and jitter until
 * stopped, or until `giveUpAfterMs` of failing.
 */
export class Tunnel {
  private ws: WebSocket | undefined;
  private stopped = false;
  private wake: (() => void) | undefined;

  constructor(private readonly options: TunnelOptions) {}

  /** Resolves once stopped; rejects on an answer retrying cannot change or on giving up. */
  async run(): Promise<void> {
    let backoff = FIRST_BACKOFF_MS;
    let failingSince: number | undefined;
    let connected = false;
    while (!this.stopped) {
      const session = await this.session(connected);
      if (this.stopped) return;
      if (session.ready) {
        connected = true;
        failingSince = undefined;
        backoff = FIRST_BACKOFF_MS;
      }
      failingSince ??= Date.now();
      const giveUp = this.options.giveUpAfterMs;
      if (giveUp !== undefined && Date.now() - failingSince >= giveUp) {
        throw new NetworkError(
          `Could not reach the service at ${this.options.baseUrl} for ${Math.round(giveUp / 1000)}s (${session.reason}): giving up, as --give-up-after asks.`,
          this.options.baseUrl,
        );
      }
      let wait = backoff * (0.75 + Math.random() * 0.5);
      if (giveUp !== undefined) wait = Math.min(wait, Math.max(0, failingSince + giveUp - Date.now()));
      this.options.handlers.lost(session.reason, wait, session.ready);
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, wait);
      });
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    }
  }

  /** Tells the service this event is done with (when connected; a lost ack only means a replay). */
  ack(id: string): void {
    this.send({ type: 'ack', id });
  }

  stop(): void {
    this.stopped = true;
    this.wake?.();
    this.ws?.close(1000, 'listen stopped');
  }

  private send(frame: ClientFrame): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(frame));
  }

  /** One connection, from opening to closing: whether it became ready, and why it ended. */
  private session(reconnecting: boolean): Promise<{ ready: boolean; reason: string }> {
    const url = serviceUrl(this.options.baseUrl, endpoints.listen.path, { websocket: true });
    for (const [key, value] of Object.entries(this.options.query())) if (value !== undefined) url.searchParams.set(key, value);
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { headers: this.options.headers, handshakeTimeout: OPEN_TIMEOUT_MS });
      this.ws = ws;
      let ready = false;
      let reason: string | undefined;
      let watchdog: NodeJS.Timeout | undefined;
      const silenceAllowed = (ms: number) => {
        clearTimeout(watchdog);
        watchdog = setTimeout(() => {
          reason = 'the service went silent';
          ws.terminate();
        }, ms);
      };
      let heartbeat = OPEN_TIMEOUT_MS / MISSED_HEARTBEATS;
      silenceAllowed(OPEN_TIMEOUT_MS);
      ws.on('unexpected-response', (_request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          if (FATAL_STATUSES.has(status)) {
            let parsed: unknown = body;
            try {
              parsed = JSON.parse(body);
            } catch {
              // not the service's error body
            }
            reject(toApiError({ status, headers: response.headers, body: parsed }));
          }
          reason = `HTTP ${status}`;
          ws.terminate();
        });
      });
      ws.on('message', (data) => {
        silenceAllowed(heartbeat * MISSED_HEARTBEATS);
        const frame = parseFrame(String(data));
        if (!frame) {
          // Nothing after a frame we cannot read can be trusted: reconnect (announced), resuming after the cursor.
          reason = 'the service sent a malformed frame';
          return void ws.terminate();
        }
        if (frame.type === 'ping') return this.send({ type: 'pong' });
        if (frame.type === 'ready') {
          ready = true;
          heartbeat = frame.heartbeat_ms;
          silenceAllowed(heartbeat * MISSED_HEARTBEATS);
          return this.options.handlers.ready(frame, reconnecting);
        }
        this.options.handlers.event(frame.event, frame.resend === true);
      });
      ws.on('error', (error) => {
        reason ??= describeError(error);
      });
      ws.on('close', (code, text) => {
        clearTimeout(watchdog);
        const said = String(text);
        resolve({ ready, reason: reason ?? `connection closed (${code}${said ? `: ${said}` : ''})` });
      });
    });
  }
}

/** A server frame, or undefined when the text is not one (not JSON, no type, an event frame without its event). */
function parseFrame(text: string): ServerFrame | undefined {
  let frame: unknown;
  try {
    frame = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof frame !== 'object' || frame === null || typeof (frame as { type?: unknown }).type !== 'string') return undefined;
  if ((frame as { type: string }).type === 'event' && typeof (frame as { event?: { id?: unknown } }).event?.id !== 'string') return undefined;
  return frame as ServerFrame;
}
