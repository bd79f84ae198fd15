import WebSocket from 'ws';
import { redactBody } from '../config/mask.js';
import { describeError } from '../infra/webhook-post.js';
import { toApiError } from './api-error.js';
import type { RequestTrace } from './client.js';
import { serviceUrl } from './url.js';

const FIRST_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 5_000;
/** Until the service names its heartbeat, a silent connection is given this long. */
const OPEN_TIMEOUT_MS = 15_000;
/** A connection silent for this many heartbeats is dead. */
const MISSED_HEARTBEATS = 3;
/** Upgrade answers that retrying will not change. */
const FATAL_STATUSES = new Set([400, 401, 403, 404]);

/** What the service sends: JSON frames with a type; it pings, the client answers pong. */
type Frame = { type: string };

export interface SocketHandlers<In extends Frame> {
  /** The connection is open (say hello here); nothing was received yet. */
  opened?(): void;
  /**
   * The heartbeat the service names in `frame`, when it is the frame that makes the
   * connection ready (listen's `ready`, a reader's `registered`); undefined for any other.
   */
  heartbeatOf(frame: In): number | undefined;
  /**
   * Whether a frame carries what its type promises (listen's event frame its event): one
   * that does not is malformed, as is text that is no typed JSON frame.
   */
  complete?(frame: In): boolean;
  /** Every frame but the service's pings (answered here), in order. */
  frame(frame: Exclude<In, { type: 'ping' }>): void;
  /** The connection closed, with the service's close code and reason. */
  closed?(code: number, reason: string): void;
  /** The connection is down (or could not be opened); the next try is in `retryInMs`. */
  lost(reason: string, retryInMs: number, wasReady: boolean): void;
}

export interface ReconnectingSocketOptions<In extends Frame> {
  baseUrl: string;
  path: string;
  headers: Record<string, string>;
  /** The query of each connection: it may change between connections (a cursor). */
  query?: () => Record<string, string | undefined>;
  /** Said when this end closes the connection (stop). */
  closeReason: string;
  /**
   * When to stop retrying, and the error the run then ends with: once the service has
   * been unreachable for `afterMs`, or at once when no connection has ever been ready
   * and `beforeReady` is set.
   */
  giveUp: { afterMs?: number | undefined; beforeReady?: boolean; error: (reason: string) => Error };
  handlers: SocketHandlers<In>;
  /** `--verbose`: each upgrade request, its answer, and how the connection ended. */
  trace?: RequestTrace | undefined;
}

/**
 * The one reconnecting WebSocket client of the service's protocols (listen tunnels,
 * terminal readers): opens a connection, answers pings, notices a silent service (a
 * watchdog of a few heartbeats), drops a connection that sends a malformed frame (never
 * a crash), refuses to retry an answer that retrying cannot change (the service's error
 * body, as an ApiError), and reconnects with backoff and jitter,
 * announcing each loss, until stopped or it gives up.
 */
export class ReconnectingSocket<In extends Frame, Out extends Frame> {
  private ws: WebSocket | undefined;
  private stopped = false;
  private fatal: Error | undefined;
  private wake: (() => void) | undefined;

  constructor(private readonly options: ReconnectingSocketOptions<In>) {}

  /** Resolves once stopped; rejects with fail()'s error, a refusal, or on giving up. */
  async run(): Promise<void> {
    const { giveUp } = this.options;
    let backoff = FIRST_BACKOFF_MS;
    let failingSince: number | undefined;
    let everReady = false;
    while (!this.stopped) {
      const session = await this.session();
      if (this.fatal) throw this.fatal;
      if (this.stopped) return;
      if (session.ready) {
        everReady = true;
        failingSince = undefined;
        backoff = FIRST_BACKOFF_MS;
      }
      failingSince ??= Date.now();
      const left = giveUp.afterMs === undefined ? Infinity : failingSince + giveUp.afterMs - Date.now();
      if ((giveUp.beforeReady && !everReady) || left <= 0) throw giveUp.error(session.reason);
      const wait = Math.round(Math.min(backoff * (0.75 + Math.random() * 0.5), left));
      this.options.handlers.lost(session.reason, wait, session.ready);
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, wait);
      });
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    }
  }

  /** Sends a frame on the open connection; false when there is none. */
  send(frame: Out): boolean {
    if (this.ws?.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  /** Flow control: the open connection is not read until resume() (a new one is read from the start). */
  pause(): void {
    this.ws?.pause();
  }

  resume(): void {
    this.ws?.resume();
  }

  /** Closes the connection and ends run(). */
  stop(): void {
    this.stopped = true;
    this.wake?.();
    // Read again: a paused connection would not read the service's answer to the close, and hang until ws's close timeout.
    this.ws?.resume();
    this.ws?.close(1000, this.options.closeReason);
  }

  /** Ends run() with this error (the first one told wins). */
  fail(error: Error): void {
    this.fatal ??= error;
    this.stop();
  }

  /** One connection, from opening to closing: whether it became ready, and why it ended. */
  private session(): Promise<{ ready: boolean; reason: string }> {
    const { baseUrl, path, headers, handlers, trace } = this.options;
    const url = serviceUrl(baseUrl, path, { websocket: true });
    for (const [key, value] of Object.entries(this.options.query?.() ?? {})) if (value !== undefined) url.searchParams.set(key, value);
    trace?.request('GET', url, headers);
    const started = performance.now();
    const answered = (status: number) => trace?.line(`< ${status} GET ${url.pathname} (${Math.round(performance.now() - started)}ms)`);
    return new Promise((resolve) => {
      const ws = new WebSocket(url, { headers, handshakeTimeout: OPEN_TIMEOUT_MS });
      ws.on('upgrade', (response) => answered(response.statusCode ?? 101));
      this.ws = ws;
      let ready = false;
      let reason: string | undefined;
      let watchdog: NodeJS.Timeout | undefined;
      let silence = OPEN_TIMEOUT_MS;
      const allowSilence = () => {
        clearTimeout(watchdog);
        watchdog = setTimeout(() => {
          reason = 'the service went silent';
          ws.terminate();
        }, silence);
      };
      allowSilence();
      ws.on('open', () => handlers.opened?.());
      ws.on('unexpected-response', (_request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          answered(status);
          if (body) trace?.line(`< ${redactBody(body)}`);
          if (FATAL_STATUSES.has(status)) this.fail(toApiError({ status, headers: response.headers, body: parseJson(body) }));
          reason = `HTTP ${status}`;
          ws.terminate();
        });
      });
      ws.on('message', (data) => {
        const parsed = parseJson(String(data));
        if (!isFrame(parsed) || handlers.complete?.(parsed as In) === false) {
          // Nothing after a frame that cannot be read can be trusted: the connection is
          // dropped (announced) and the next one resumes where the protocol stands.
          reason = 'the service sent a malformed frame';
          return void ws.terminate();
        }
        const frame = parsed as In;
        const heartbeat = handlers.heartbeatOf(frame);
        if (heartbeat !== undefined) {
          ready = true;
          silence = heartbeat * MISSED_HEARTBEATS;
        }
        allowSilence();
        if (frame.type === 'ping') ws.send(JSON.stringify({ type: 'pong' }));
        else handlers.frame(frame as Exclude<In, { type: 'ping' }>);
      });
      ws.on('error', (error) => {
        reason ??= describeError(error);
      });
      ws.on('close', (code, text) => {
        clearTimeout(watchdog);
        const said = String(text);
        const ended = reason ?? `connection closed (${code}${said ? `: ${said}` : ''})`;
        trace?.line(`${reason === undefined ? '<' : '!'} GET ${url.pathname}: ${ended}`);
        handlers.closed?.(code, said);
        resolve({ ready, reason: ended });
      });
    });
  }
}

const isFrame = (value: unknown): value is Frame => typeof value === 'object' && value !== null && typeof (value as Partial<Frame>).type === 'string';

/** A frame or error body as sent; text that is not JSON stays text (and is no frame). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
