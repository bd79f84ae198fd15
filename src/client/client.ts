import { randomUUID } from 'node:crypto';
import { Agent, errors as undiciErrors } from 'undici';
import { endpoints, type EndpointName, fillPath, isWrite } from '../domain/endpoints.js';
import { isSecretHeader, redactBody, redactUrl } from '../config/mask.js';
import { maskSecret } from '../domain/secrets.js';
import type { RawResponse } from './api-error.js';
import { NetworkError } from './errors.js';
import { serviceUrl } from './url.js';

export interface ClientOptions {
  baseUrl: string;
  account: string;
  apiKey: string;
  headerPrefix: string;
  /** Retries after the first attempt, for network errors, 429 and 5xx. */
  retries?: number;
  timeoutMs?: number;
  /** `--verbose`: one line per request and response, keys masked. */
  trace?: ((line: string) => void) | undefined;
  userAgent?: string;
  /**
   * Called once when the service refuses the first connection (the auto-started
   * sandbox is down): starts it and says where it answers, and the request is sent there.
   */
  startService?: (() => Promise<{ baseUrl: string; account: string; apiKey: string }>) | undefined;
}

export interface CallOptions {
  params?: Record<string, string>;
  body?: unknown;
  /** Query parameters; pairs keep repeated names (`pay api`'s `key[]=v`). */
  query?: Record<string, string | number | boolean | undefined> | Array<[string, string]>;
  /** Set to replay a write deliberately; otherwise every write gets a fresh key. */
  idempotencyKey?: string;
  /** The caller's own headers (`pay api -H`), sent after the client's, which they may replace. */
  headers?: Record<string, string>;
  /** Overrides the client's timeout for a request known to be long (0: none). */
  timeoutMs?: number;
}

export type { RawResponse };

/** `--verbose` for a request made outside call(): a WebSocket's upgrade and what follows. */
export interface RequestTrace {
  /** The request's line and headers, the key masked. */
  request(method: string, url: URL, headers: Record<string, string>): void;
  /** A line of the answer, or of what became of the connection. */
  line(text: string): void;
}

/** Failures before the request could reach the service: nothing was sent. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'EAI_AGAIN', 'ENOTFOUND', 'UND_ERR_CONNECT_TIMEOUT']);

/** Failures worth another attempt: the next one may well get through. */
const RETRYABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * The service's HTTP client: auth headers, an idempotency key on every write, retries
 * with backoff and jitter (writes only ever with their key), typed errors.
 */
export class Client {
  private readonly agent: Agent;
  private readonly retries: number;
  private options: ClientOptions;

  constructor(options: ClientOptions) {
    this.options = options;
    const timeout = options.timeoutMs ?? 30_000;
    this.agent = new Agent({ connect: { timeout: Math.min(timeout, 10_000) }, headersTimeout: timeout, bodyTimeout: timeout, keepAliveTimeout: 4_000 });
    this.retries = options.retries ?? 2;
  }

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  get account(): string {
    return this.options.account;
  }

  /** Headers that authenticate as this profile (also used by WebSocket connections). */
  /** The trace for requests made outside call() (WebSockets); undefined without `--verbose`. */
  get tracer(): RequestTrace | undefined {
    const trace = this.options.trace;
    return trace && { request: (method, url, headers) => this.traceRequest(method, url, headers, undefined, 0), line: trace };
  }

  authHeaders(): Record<string, string> {
    const prefix = this.options.headerPrefix;
    return { [`${prefix}-account`]: this.options.account, [`${prefix}-api-key`]: this.options.apiKey };
  }

  /** Calls a named endpoint; a non-2xx answer throws ApiError. */
  async call<T>(name: EndpointName, options: CallOptions = {}): Promise<T> {
    const { method, path } = endpoints[name];
    const response = await this.raw(method, fillPath(path, options.params), options);
    if (response.status >= 200 && response.status < 300) return response.body as T;
    // Loaded on an error only: its schema brings zod, which a successful call never needs.
    const { toApiError } = await import('./api-error.js');
    throw toApiError(response);
  }

  /** Sends any request and returns the answer whatever its status (`pay api`). */
  async raw(method: string, path: string, options: Omit<CallOptions, 'params'> = {}): Promise<RawResponse> {
    const write = isWrite(method.toUpperCase());
    const idempotencyKey = write ? (options.idempotencyKey ?? randomUUID()) : undefined;
    const body = write || options.body !== undefined ? JSON.stringify(options.body ?? {}) : undefined;
    const target = () => {
      const url = serviceUrl(this.options.baseUrl, path);
      for (const [key, value] of Array.isArray(options.query) ? options.query : Object.entries(options.query ?? {})) {
        if (value !== undefined) url.searchParams.append(key, String(value));
      }
      // Spec section 4: every request carries Content-Type: application/json, with a body or not.
      const headers: Record<string, string> = {
        ...this.authHeaders(),
        'content-type': 'application/json',
        accept: 'application/json',
        'user-agent': this.options.userAgent ?? 'pay-cli',
        ...options.headers,
      };
      if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
      return { url, headers };
    };
    let { url, headers } = target();
    /** Some attempt failed after it was sent: the service may have applied it. */
    let sent = false;

    for (let attempt = 0; ; attempt++) {
      const started = performance.now();
      this.traceRequest(method, url, headers, body, attempt);
      try {
        const timeouts = options.timeoutMs === undefined ? {} : { headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs };
        const res = await this.agent.request({ origin: url.origin, path: `${url.pathname}${url.search}`, method: method.toUpperCase() as 'GET', headers, body, ...timeouts });
        const text = await res.body.text();
        const ms = Math.round(performance.now() - started);
        this.options.trace?.(`< ${res.statusCode} ${method.toUpperCase()} ${url.pathname} (${ms}ms)${res.headers['idempotent-replayed'] ? ' [replayed]' : ''}`);
        if (text) this.options.trace?.(`< ${redactBody(text)}`);
        const retryable = res.statusCode === 429 || res.statusCode >= 500;
        if (retryable && attempt < this.retries) {
          await sleep(backoff(attempt, res.headers['retry-after']));
          continue;
        }
        return { status: res.statusCode, headers: res.headers, body: parseBody(text) };
      } catch (error) {
        const code = errorCode(error);
        // Any failure to talk to the service is "unreachable", unless undici was misused.
        if (code === undefined || code.startsWith('UND_ERR_INVALID')) throw error;
        this.options.trace?.(`! ${method.toUpperCase()} ${url.pathname}: ${code}`);
        const start = this.options.startService;
        if (code === 'ECONNREFUSED' && start) {
          this.options = { ...this.options, ...(await start()), startService: undefined };
          ({ url, headers } = target());
          attempt--;
          continue;
        }
        sent ||= !NEVER_SENT.has(code);
        if (RETRYABLE_CODES.has(code) && attempt < this.retries) {
          await sleep(backoff(attempt));
          continue;
        }
        // Run again blind, a write applied already (a payment confirmed) would be applied twice: its key is the safe way to repeat it.
        const unknown = idempotencyKey !== undefined && sent
          ? ` The ${method.toUpperCase()} ${path} may have been applied before the connection failed: check before running it again. It was sent with Idempotency-Key ${idempotencyKey}; sent again with that key and the same body (pay api --idempotency-key), it is not applied twice.`
          : '';
        throw new NetworkError(`Could not reach the service at ${this.options.baseUrl} (${code}).${unknown}`, url.origin, { cause: error });
      }
    }
  }

  private traceRequest(method: string, url: URL, headers: Record<string, string>, body: string | undefined, attempt: number): void {
    const trace = this.options.trace;
    if (!trace) return;
    trace(`> ${method.toUpperCase()} ${redactUrl(url)}${attempt > 0 ? ` (retry ${attempt})` : ''}`);
    for (const [name, value] of Object.entries(headers)) {
      trace(`> ${name}: ${isSecretHeader(name) ? maskSecret(value) : value}`);
    }
    if (body !== undefined) trace(`> ${redactBody(body)}`);
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function errorCode(error: unknown): string | undefined {
  if (error instanceof undiciErrors.UndiciError) return (error as { code?: string }).code;
  const cause = (error as { cause?: { code?: string } } | undefined)?.cause;
  return (error as { code?: string } | undefined)?.code ?? cause?.code;
}

/**
 * The wait before a retry: the service's Retry-After (capped), else exponential backoff;
 * with jitter either way, never under what the service asked, so commands limited together
 * do not all come back in the same instant and meet the limit again.
 */
export function backoff(attempt: number, retryAfter?: string | string[]): number {
  const seconds = Number(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
  const base = Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds * 1000, 10_000) : 200 * 2 ** attempt;
  return base + Math.random() * base * 0.5;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
