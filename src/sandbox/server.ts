import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { ApiError } from '../domain/errors.js';
import { DEFAULT_DELIVERY_TIMING, DeliveryWorker } from './events/delivery.js';
import { ListenHub } from './hub/listen.js';
import { UpgradeRouter } from './hub/upgrade.js';
import { registerRoutes } from './routes/index.js';
import { Sandbox, type SandboxOptions } from './sandbox.js';

export const BODY_LIMIT = 1024 * 1024;

export interface SandboxServer {
  app: FastifyInstance;
  sandbox: Sandbox;
}

/** Builds the sandbox's HTTP app (no listen()): one error shape for every failure. */
export async function buildServer(options: SandboxOptions): Promise<SandboxServer> {
  const sandbox = new Sandbox(options);
  const app = Fastify({ bodyLimit: BODY_LIMIT, logger: false, return503OnClosing: true });

  // An empty JSON body is an empty object: bodiless POSTs (cancel, pause) need not send `{}`.
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, {});
    defaultJson(request, text, done);
  });

  app.setErrorHandler((error: FastifyError | ApiError, _request, reply) => {
    const apiError = toApiError(error);
    return reply.code(apiError.status).send(apiError.toBody());
  });
  app.setNotFoundHandler((request, reply) => {
    const error = new ApiError(404, 'route_missing', `No such route: ${request.method} ${request.url.split('?')[0]}.`);
    return reply.code(404).send(error.toBody());
  });
  const listenHub = new ListenHub(sandbox, new UpgradeRouter(app), options.listenHeartbeatMs);
  const timing = options.webhooks ?? {};
  const delivery = new DeliveryWorker(sandbox, {
    retryScale: timing.retryScale ?? DEFAULT_DELIVERY_TIMING.retryScale,
    timeoutMs: timing.timeoutMs ?? DEFAULT_DELIVERY_TIMING.timeoutMs,
    concurrency: timing.concurrency ?? DEFAULT_DELIVERY_TIMING.concurrency,
  });
  // Tunnels and deliveries end before the server closes, the database last.
  app.addHook('preClose', async () => {
    listenHub.close();
    await delivery.stop();
  });
  app.addHook('onClose', async () => sandbox.close());

  app.get('/healthz', async () => ({ ok: true }));
  registerRoutes(app, sandbox);
  await app.ready();
  delivery.start();
  return { app, sandbox };
}

function toApiError(error: FastifyError | ApiError): ApiError {
  if (error instanceof ApiError) return error;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, 'body_too_large', `The request body is larger than the limit of ${BODY_LIMIT} bytes.`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(400, 'unsupported_content_type', 'Send request bodies as JSON, with Content-Type: application/json.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(400, 'invalid_json', `The request body is not valid JSON: ${error.message}`);
  }
  if (error instanceof SyntaxError || error.statusCode === 400) {
    return new ApiError(400, 'invalid_json', `The request body is not valid JSON: ${error.message}`);
  }
  return new ApiError(500, 'internal', 'An internal error occurred in the sandbox.');
}
