import { isUtf8 } from 'node:buffer';
import { type IncomingMessage, maxHeaderSize, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import { maskCardNumbers } from '../domain/cards.js';
import { pathServing } from '../domain/endpoints.js';
import { ApiError, clip } from '../domain/errors.js';
import { realScheduler, type Scheduler } from '../infra/time.js';
import { DEFAULT_DELIVERY_TIMING, DeliveryWorker } from './events/delivery.js';
import { ListenHub } from './hub/listen.js';
import { TerminalHub } from './hub/terminal.js';
import { isWebSocketUpgrade, UpgradeRouter } from './hub/upgrade.js';
import { registerRoutes } from './routes/index.js';
import { Sandbox, type SandboxOptions } from './sandbox.js';
import { claimDatabaseFile, realDatabaseFile } from './store/db.js';

export const BODY_LIMIT = 1024 * 1024;
/** The longest path segment (an id) routed; a longer one is 414. */
export const MAX_PARAM_LENGTH = 100;

export interface SandboxServer {
  app: FastifyInstance;
  sandbox: Sandbox;
  /**
   * Starts the work that runs without a request: webhook deliveries (what is due, and
   * what was left due by a previous run) and the hubs' heartbeats. listen() calls it.
   */
  startBackground(): void;
}

/**
 * Builds the sandbox's HTTP app (no listen(), no background work: see listen()): one
 * error shape for every failure, from whichever layer refuses (node's HTTP parser, the
 * router, the body parser, a route). A database file serves one sandbox at a time: it
 * is claimed until the app closes (DatabaseInUseError while another has it), whichever
 * path names it: the sandbox works on the real file (realDatabaseFile).
 */
export async function buildServer(options: SandboxOptions, scheduler: Scheduler = realScheduler): Promise<SandboxServer> {
  const db = options.db === ':memory:' ? options.db : realDatabaseFile(options.db);
  const release = db === ':memory:' ? undefined : await claimDatabaseFile(db);
  try {
    return await serverOn({ ...options, db }, scheduler, release);
  } catch (error) {
    await release?.();
    throw error;
  }
}

async function serverOn(options: SandboxOptions, scheduler: Scheduler, release: (() => Promise<void>) | undefined): Promise<SandboxServer> {
  // What the services did goes to the hubs and the delivery worker: they are made below.
  const sandbox = new Sandbox(
    options,
    {
      eventAppended: (account) => listenHub.eventAppended(account),
      deliveriesQueued: () => delivery.kick(),
      resendToListeners: (account, event) => listenHub.resend(account, event),
    },
    scheduler,
  );
  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    logger: false,
    // A request arriving while the sandbox stops gets the error body too (hook below).
    return503OnClosing: false,
    clientErrorHandler: answerClientError,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // node's own refusal of an HTTP/1.1 request without Host has no body: the hook below answers it.
    http: { shouldUpgradeCallback: isWebSocketUpgrade, requireHostHeader: false },
    frameworkErrors: (error, _request, reply) => send(reply, toApiError(error)),
  });

  app.server.on('checkExpectation', refuseExpectation);
  app.server.on('connect', refuseConnect);
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (request, body: Buffer, done) => {
    try {
      // Bodies are read as they come: a compressed one would be called invalid JSON, or its header ignored.
      const encoding = request.headers['content-encoding']?.trim().toLowerCase();
      if (encoding !== undefined && encoding !== '' && encoding !== 'identity') {
        throw new ApiError(400, 'unsupported_content_encoding', `Unsupported Content-Encoding '${clip(encoding)}': send the JSON body uncompressed.`, { param: 'Content-Encoding' });
      }
      // Read as a string, bytes that are not UTF-8 would become U+FFFD and be stored so: 'José' in Latin-1 as 'Jos\uFFFD'.
      if (!isUtf8(body)) {
        throw new ApiError(400, 'invalid_json', 'The request body must be JSON encoded in UTF-8 (RFC 8259 section 8.1), and it is not valid UTF-8: send it UTF-8 encoded, not Latin-1 or UTF-16.', { param: 'body' });
      }
      done(null, parseJson(body.toString()));
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  const send = (reply: FastifyReply, error: ApiError) => reply.code(error.status).headers(error.headers).send(error.toBody());
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    const apiError = toApiError(error);
    // The client is told nothing of it; whoever runs the sandbox is, on its stderr (sandbox.log when detached).
    if (apiError.status === 500 && !(error instanceof ApiError)) {
      const what = maskCardNumbers(error.stack ?? String(error));
      process.stderr.write(`pay: ${request.method} ${clip(request.url.split('?')[0]!)} failed (500 internal): ${what}\n`);
    }
    return send(reply, apiError);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    // A path served with other methods (attach is PUT where Stripe has POST) says which, naming the table's path, not echoing this one.
    const served = pathServing(path);
    const message = served
      ? `No such route: ${request.method} ${served.path}. That path takes ${served.methods.join(' or ')}.`
      : `No such route: ${request.method} ${clip(path)}.`;
    return send(reply, new ApiError(404, 'route_missing', message));
  });
  let closing = false;
  // A callback hook, not an async one: no promise on every request.
  app.addHook('onRequest', (request, _reply, done) => {
    if (closing) return done(new ApiError(503, 'shutting_down', 'The sandbox is stopping; try again once it is started.'));
    if (request.raw.httpVersion === '1.1' && !request.headers.host) {
      return done(new ApiError(400, 'parameter_missing', 'Missing the Host header: every HTTP/1.1 request must send one.', { param: 'Host' }));
    }
    done();
  });
  // One `upgrade` listener; each WebSocket hub claims its path.
  const upgrades = new UpgradeRouter(app, sandbox);
  const listenHub = new ListenHub(sandbox, upgrades, options.listenHeartbeatMs);
  const terminalHub = new TerminalHub(sandbox, upgrades, options.readerHeartbeatMs);
  const timing = options.webhooks ?? {};
  const delivery = new DeliveryWorker(sandbox.store, (account) => sandbox.context(account), scheduler, {
    retryScale: timing.retryScale ?? DEFAULT_DELIVERY_TIMING.retryScale,
    timeoutMs: timing.timeoutMs ?? DEFAULT_DELIVERY_TIMING.timeoutMs,
    concurrency: timing.concurrency ?? DEFAULT_DELIVERY_TIMING.concurrency,
  });
  // Tunnels, readers and deliveries end before the server closes, the database last.
  app.addHook('preClose', async () => {
    closing = true;
    listenHub.close();
    terminalHub.close();
    await delivery.stop();
  });
  app.addHook('onClose', async () => {
    sandbox.close();
    await release?.();
  });

  app.get('/healthz', async () => ({ ok: true }));
  registerRoutes(app, sandbox);
  await app.ready();
  const startBackground = () => {
    listenHub.start();
    terminalHub.start();
    delivery.start();
  };
  return { app, sandbox, startBackground };
}

/**
 * Listens (on loopback unless told otherwise), then starts the background work; a
 * server that cannot listen is closed.
 */
export async function listen(server: SandboxServer, options: { port: number; host: string }): Promise<string> {
  const address = await server.app.listen(options).catch(async (error: unknown) => {
    await server.app.close();
    throw error;
  });
  server.startBackground();
  return address;
}

/**
 * A JSON body: no bytes is no body (undefined). Parsed with JSON.parse, which makes
 * `__proto__` an own key, never a prototype; no field is named so, and it is refused as
 * an unknown parameter naming where it sits, rather than called invalid JSON.
 */
function parseJson(raw: string): unknown {
  // A byte order mark (PowerShell writes UTF-8 files with one) is ignored, as RFC 8259 section 8.1 allows.
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  if (text.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    // V8's message quotes the input: only the position is told back.
    const at = /position \d+/.exec((error as Error).message)?.[0];
    throw new ApiError(400, 'invalid_json', `The request body must be valid JSON${at ? ` (the error is at ${at})` : ''}.`, { param: 'body' });
  }
  if (nestsDeeperThan(parsed, MAX_BODY_DEPTH)) {
    throw new ApiError(400, 'parameter_invalid', `Invalid body: objects and arrays may nest at most ${MAX_BODY_DEPTH} levels deep.`, { param: 'body' });
  }
  // A key can spell __proto__ only literally or with \u escapes: without either, nothing to look for.
  const poisoned = text.includes('__proto__') || text.includes('\\u') ? protoKeyIn(parsed) : undefined;
  if (poisoned !== undefined) {
    const param = clip(poisoned);
    throw new ApiError(400, 'parameter_unknown', `Received unknown parameter: ${param}. No field or metadata key may be named __proto__.`, { param });
  }
  return parsed;
}

/**
 * How deep a body may nest; the API's own fields go three levels down. JSON.parse reads any
 * depth, but what reads the body after it recurses (the key search below, the body's MAC
 * for idempotency), and a body nested thousands deep would overflow the stack: a 500.
 */
export const MAX_BODY_DEPTH = 32;

/** Whether objects and arrays in `value` nest deeper than `limit`, found without recursion. */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth === limit) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

/** Where a `__proto__` key sits in a parsed body (JSON.parse makes it an own key, never a prototype), as a dotted path. */
function protoKeyIn(value: unknown, path = ''): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value)) {
    const at = path === '' ? key : `${path}.${key}`;
    if (key === '__proto__') return at;
    const found = protoKeyIn(item, at);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Failures before a route runs, as the service's error body, echoing at most a prefix of the input. */
function toApiError(error: FastifyError | ApiError): ApiError {
  if (error instanceof ApiError) return error;
  const body = { param: 'body' };
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, 'body_too_large', `The request body must be at most ${BODY_LIMIT} bytes.`, body);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(400, 'unsupported_content_type', 'The request body must be JSON, sent with Content-Type: application/json.', body);
    case 'FST_ERR_BAD_URL':
      return new ApiError(400, 'invalid_url', `The URL path is not valid percent-encoding: '${clip(urlOf(error))}'.`);
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new ApiError(414, 'url_too_long', `A segment of the URL path is longer than ${MAX_PARAM_LENGTH} characters: '${clip(urlOf(error))}'.`);
  }
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return new ApiError(400, 'invalid_request', 'The request could not be read: it is not a well-formed HTTP request with a JSON body.');
  }
  return new ApiError(500, 'internal', 'An internal error occurred in the sandbox.');
}

/** The path a router error names, from its message `'<path>' is …`. */
const urlOf = (error: FastifyError) => /^'(.*)' is /s.exec(error.message)?.[1] ?? '';

/** An Expect header but 100-continue, which node refuses before fastify sees the request (else a 417 with no body). */
function refuseExpectation(request: IncomingMessage, response: ServerResponse): void {
  const error = new ApiError(417, 'expectation_failed', `Unsupported Expect header '${clip(request.headers.expect ?? '')}': only 100-continue is supported.`, { param: 'Expect' });
  const body = JSON.stringify(error.toBody());
  response.writeHead(error.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) }).end(body);
}

/**
 * Requests node's HTTP parser refuses before fastify sees them (headers beyond
 * `maxHeaderSize`, malformed HTTP) get the error body on the raw socket.
 */
function answerClientError(error: NodeJS.ErrnoException & { rawPacket?: unknown }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // A control character in a header value (an Idempotency-Key cut from binary output, say) is named, as the pipeline names a value it refuses.
  const header = error.code === 'HPE_INVALID_HEADER_TOKEN' ? headerWithControlCharacter(error.rawPacket) : undefined;
  const apiError =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? requestLineTooLong(error.rawPacket)
        ? new ApiError(414, 'url_too_long', `The URL must be at most ${maxHeaderSize} bytes, with the request's headers.`)
        : new ApiError(431, 'headers_too_large', `The request line and headers must be at most ${maxHeaderSize} bytes together.`)
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new ApiError(408, 'request_timeout', 'The request was not received in time.')
        : header !== undefined
          ? new ApiError(400, 'parameter_invalid', `Invalid ${header} header: a header value must not hold a control character (only visible characters, spaces and tabs).`, { param: header })
          : new ApiError(400, 'invalid_request', 'The request is not well-formed HTTP/1.1.');
  answerOnSocket(socket, apiError);
}

/** The name of the first header whose value holds a control character (tab aside), in the bytes the parser refused. */
function headerWithControlCharacter(packet: unknown): string | undefined {
  if (!Buffer.isBuffer(packet)) return undefined;
  const head = packet.toString('latin1').split('\r\n\r\n', 1)[0]!;
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0 && /[\x00-\x08\x0a-\x1f\x7f]/.test(line.slice(colon + 1))) return clip(line.slice(0, colon));
  }
  return undefined;
}

/** A request node hands over as a raw socket (a refused one, a CONNECT): the error body, then the connection closes. */
function answerOnSocket(socket: Duplex, apiError: ApiError): void {
  if (!socket.writable) return void socket.destroy();
  const body = JSON.stringify(apiError.toBody());
  socket.end(
    `HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}

/** CONNECT (a proxy's method): no route of the sandbox, answered as any unknown route, where node would drop the connection. */
function refuseConnect(request: IncomingMessage, socket: Duplex): void {
  socket.on('error', () => socket.destroy());
  answerOnSocket(socket, new ApiError(404, 'route_missing', `No such route: CONNECT ${clip(request.url ?? '')}.`));
}

/**
 * Whether the parser overflowed on the request line itself (a URL too long, 414) rather
 * than on the headers (431): what it was reading starts the request and has no line end
 * within the limit. A request line split over packets reads as headers, the safe side.
 */
function requestLineTooLong(packet: unknown): boolean {
  // node's parser hands over the bytes it was given (fastify's type says otherwise).
  if (!Buffer.isBuffer(packet) || !/^[A-Z]+ /.test(packet.subarray(0, 16).toString('latin1'))) return false;
  const end = packet.indexOf('\r\n');
  return end === -1 || end > maxHeaderSize;
}
