import type { RequestTrace } from '../client/client.js';
import { NetworkError } from '../client/errors.js';
import { ReconnectingSocket } from '../client/reconnecting-socket.js';
import { endpoints } from '../domain/endpoints.js';
import type { Event } from '../domain/events.js';
import type { ClientFrame, ServerFrame } from '../domain/listen.js';

const isEvent = (event: unknown) => typeof event === 'object' && event !== null && typeof (event as { id?: unknown }).id === 'string';

export type ReadyFrame = Extract<ServerFrame, { type: 'ready' }>;

/** What a resumption replayed; nothing to count is said in words, not as "0 events". */
const replayed = (n: number) => (n === 0 ? 'nothing missed' : `${n} event${n === 1 ? '' : 's'} replayed`);

/** How a reconnect is announced (never silently): where streaming resumed, how much was replayed. */
export const reconnectedNotice = (frame: ReadyFrame) =>
  `Reconnected: resumed after ${frame.after ?? 'the start of the log'}, ${replayed(frame.backlog)}.`;

/** How a lost (or refused) connection is announced, with when the next try is. */
export const lostNotice = (baseUrl: string, reason: string, retryInMs: number, wasConnected: boolean) =>
  `${wasConnected ? 'Lost the connection to' : 'Could not connect to'} ${baseUrl} (${reason}): reconnecting in ${(retryInMs / 1000).toFixed(1)}s…`;

/** How resuming a run is announced. */
export const resumedNotice = (frame: ReadyFrame) => `Resumed after ${frame.after}, ${replayed(frame.backlog)}.`;

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
  /** A first connection that fails ends it (NetworkError): a watcher with nothing to resume. */
  giveUpBeforeReady?: boolean | undefined;
  handlers: TunnelHandlers;
  /** `--verbose`: each connection's upgrade request and answer. */
  trace?: RequestTrace | undefined;
}

/**
 * The client end of the listen tunnel (protocol in src/sandbox/hub/listen.ts) over the
 * one reconnecting socket: it announces each reconnect and keeps trying until stopped, or
 * until `giveUpAfterMs` of failing (or, with `giveUpBeforeReady`, a first connection fails).
 */
export class Tunnel {
  private readonly socket: ReconnectingSocket<ServerFrame, ClientFrame>;
  private connected = false;

  constructor(options: TunnelOptions) {
    const { baseUrl, handlers, giveUpAfterMs } = options;
    this.socket = new ReconnectingSocket({
      baseUrl,
      path: endpoints.listen.path,
      headers: options.headers,
      query: options.query,
      closeReason: 'listen stopped',
      trace: options.trace,
      giveUp: {
        afterMs: giveUpAfterMs,
        beforeReady: options.giveUpBeforeReady,
        error: (reason) =>
          this.connected || !options.giveUpBeforeReady
            ? new NetworkError(`Could not reach the service at ${baseUrl} for ${Math.round((giveUpAfterMs ?? 0) / 1000)}s (${reason}): giving up, as --give-up-after asks.`, baseUrl)
            : new NetworkError(`Could not reach the service at ${baseUrl} (${reason}).`, baseUrl),
      },
      handlers: {
        heartbeatOf: (frame) => (frame.type === 'ready' ? frame.heartbeat_ms : undefined),
        complete: (frame) => {
          if (frame.type === 'event') return isEvent(frame.event);
          if (frame.type === 'events') return Array.isArray(frame.events) && frame.events.every(isEvent);
          return true;
        },
        frame: (frame) => {
          if (frame.type === 'ready') {
            handlers.ready(frame, this.connected);
            this.connected = true;
          } else if (frame.type === 'events') {
            for (const event of frame.events) handlers.event(event, false);
          } else if (frame.type === 'event') {
            handlers.event(frame.event, true);
          }
        },
        lost: handlers.lost,
      },
    });
  }

  /** Resolves once stopped; rejects on an answer retrying cannot change or on giving up. */
  run(): Promise<void> {
    return this.socket.run();
  }

  /** Tells the service these events are done with, in one frame (when connected; a lost ack only means a replay). */
  ack(ids: string[]): void {
    if (ids.length > 0) this.socket.send({ type: 'ack', ids });
  }

  /** Stops reading events until resume() (the service keeps them: its sends wait for room). */
  pause(): void {
    this.socket.pause();
  }

  resume(): void {
    this.socket.resume();
  }

  stop(): void {
    this.socket.stop();
  }
}
