import type { Dispatcher } from 'undici';
import { signedHeaders } from './webhook-signing.js';

/** One attempt, as the sandbox's delivery log and `listen` both record it. */
export interface PostAttempt {
  attempted_at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

/**
 * POSTs an event signed with `secret` and says how it went: the status, or a short
 * reason (`timeout`, `ECONNREFUSED`) when there was no answer. Only an abort throws.
 * `timeoutMs` bounds the whole attempt, answer included: the dispatcher's body timeout
 * is a gap between chunks, so an app trickling its answer would hold the slot forever.
 * Through the dispatcher's own handler interface: undici's `request()` wraps each
 * answer in a body stream and an async resource, a third of a delivery's cost under a
 * burst, and nothing here reads the body.
 */
export async function postSignedEvent(
  url: string,
  event: { id: string },
  secret: string,
  options: { dispatcher: Dispatcher; userAgent: string; timeoutMs: number; headers?: Record<string, string>; signal?: AbortSignal; payload?: string },
): Promise<PostAttempt> {
  // `payload`: the event as already serialised by the caller (listen keeps it so), not serialised again.
  const payload = options.payload ?? JSON.stringify(event);
  const started = Date.now();
  let status: number | null = null;
  let error: string | null = null;
  try {
    status = await post(url, {
      headers: { ...options.headers, 'content-type': 'application/json', 'user-agent': options.userAgent, ...signedHeaders(secret, event.id, payload) },
      body: payload,
      dispatcher: options.dispatcher,
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
  } catch (cause) {
    if (options.signal?.aborted) throw cause;
    error = describeError(cause);
  }
  return { attempted_at: new Date(started).toISOString(), status_code: status, error, duration_ms: Date.now() - started };
}

/** Where each URL goes, parsed once (targets are few and reused). */
const parsed = new Map<string, { origin: string; path: string }>();
function target(url: string): { origin: string; path: string } {
  let found = parsed.get(url);
  if (!found) {
    const { origin, pathname, search } = new URL(url);
    if (parsed.size >= 64) parsed.clear();
    found = { origin, path: `${pathname}${search}` };
    parsed.set(url, found);
  }
  return found;
}

/**
 * The POSTs in flight under each signal, cut by one listener a signal when it aborts: a
 * listener added and removed a POST was a twentieth of a burst's time in `listen`.
 */
const inFlight = new WeakMap<AbortSignal, Set<() => void>>();

/** Registers `abort` to run if `signal` aborts; the function returned forgets it. */
function onAbort(signal: AbortSignal, abort: () => void): () => void {
  let aborts = inFlight.get(signal);
  if (!aborts) {
    const all = new Set<() => void>();
    signal.addEventListener('abort', () => {
      for (const each of all) each();
      all.clear();
    }, { once: true });
    inFlight.set(signal, (aborts = all));
  }
  aborts.add(abort);
  return () => aborts.delete(abort);
}

/** A POST's deadline (performance.now() ms) and what ends it there. */
interface Deadline {
  at: number;
  expire: () => void;
}

/**
 * The deadlines of the POSTs in flight, checked by one timer every SWEEP_MS while there
 * are any, not by a timer a POST: listen sends thousands a second.
 */
const deadlines = new Set<Deadline>();
const SWEEP_MS = 100;
let sweeper: NodeJS.Timeout | undefined;

function watch(timeoutMs: number, expire: () => void): Deadline {
  const deadline = { at: performance.now() + timeoutMs, expire };
  deadlines.add(deadline);
  sweeper ??= setInterval(sweep, SWEEP_MS).unref();
  return deadline;
}

function unwatch(deadline: Deadline): void {
  deadlines.delete(deadline);
  if (deadlines.size === 0 && sweeper) {
    clearInterval(sweeper);
    sweeper = undefined;
  }
}

function sweep(): void {
  const now = performance.now();
  for (const deadline of deadlines) {
    if (deadline.at > now) continue;
    unwatch(deadline);
    deadline.expire();
  }
}

/** One POST whose answer's body is read and dropped: its status. */
function post(url: string, options: { headers: Record<string, string>; body: string; dispatcher: Dispatcher; signal: AbortSignal | undefined; timeoutMs: number }): Promise<number> {
  const { signal } = options;
  signal?.throwIfAborted();
  return new Promise<number>((resolve, reject) => {
    let status = 0;
    let controller: Dispatcher.DispatchController | undefined;
    let timedOut = false;
    const abort = () => controller?.abort(signal!.reason as Error);
    const forget = signal && onAbort(signal, abort);
    const deadline = watch(options.timeoutMs, () => {
      timedOut = true;
      controller?.abort(new AttemptTimeoutError());
    });
    const settle = () => {
      unwatch(deadline);
      forget?.();
    };
    try {
      options.dispatcher.dispatch(
        { ...target(url), method: 'POST', headers: options.headers, body: options.body },
        {
          onRequestStart(started) {
            controller = started;
            if (signal?.aborted) abort();
            else if (timedOut) controller.abort(new AttemptTimeoutError());
          },
          onResponseStart(_controller, statusCode) {
            status = statusCode;
          },
          onResponseData() {},
          onResponseEnd() {
            settle();
            resolve(status);
          },
          onResponseError(_controller, cause) {
            settle();
            reject(cause);
          },
        },
      );
    } catch (cause) {
      settle();
      reject(cause);
    }
  });
}

/** An attempt past its whole time (`timeoutMs`), however its answer was coming. */
class AttemptTimeoutError extends Error {
  override name = 'AttemptTimeoutError';
}

/** A short reason a person can act on: `timeout`, `ECONNREFUSED`, … */
export function describeError(error: unknown): string {
  if (error instanceof AttemptTimeoutError) return 'timeout';
  const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return 'timeout';
  // undici's name for a connection the other side closed mid-request.
  if (code === 'UND_ERR_SOCKET') return 'ECONNRESET';
  if (code) return code;
  return error instanceof Error ? error.message : String(error);
}
