import { type Dispatcher, request } from 'undici';
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
 */
export async function postSignedEvent(
  url: string,
  event: { id: string },
  secret: string,
  options: { dispatcher: Dispatcher; userAgent: string; headers?: Record<string, string>; signal?: AbortSignal },
): Promise<PostAttempt> {
  const payload = JSON.stringify(event);
  const started = Date.now();
  let status: number | null = null;
  let error: string | null = null;
  try {
    const response = await request(url, {
      method: 'POST',
      headers: { ...options.headers, 'content-type': 'application/json', 'user-agent': options.userAgent, ...signedHeaders(secret, event.id, payload) },
      body: payload,
      dispatcher: options.dispatcher,
      signal: options.signal,
    });
    status = response.statusCode;
    await response.body.dump();
  } catch (cause) {
    if (options.signal?.aborted) throw cause;
    error = describeError(cause);
  }
  return { attempted_at: new Date(started).toISOString(), status_code: status, error, duration_ms: Date.now() - started };
}

/** A short reason a person can act on: `timeout`, `ECONNREFUSED`, … */
export function describeError(error: unknown): string {
  const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return 'timeout';
  // undici's name for a connection the other side closed mid-request.
  if (code === 'UND_ERR_SOCKET') return 'ECONNRESET';
  if (code) return code;
  return error instanceof Error ? error.message : String(error);
}
