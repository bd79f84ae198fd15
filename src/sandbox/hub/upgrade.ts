import { type IncomingMessage, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../domain/errors.js';
import { authenticate } from '../pipeline.js';
import type { Sandbox } from '../sandbox.js';
import type { Account } from '../store/accounts.js';

/**
 * The upgrades the router takes: WebSocket only. Any other (curl --http2 offers h2c on
 * every plain request) is an ordinary HTTP/1.1 request, served as one (RFC 9110: a
 * server may ignore Upgrade), never refused as an unknown WebSocket path.
 */
export const isWebSocketUpgrade = (request: IncomingMessage): boolean => request.headers.upgrade?.trim().toLowerCase() === 'websocket';

export type UpgradeHandler = (account: Account, request: IncomingMessage, socket: Duplex, head: Buffer, url: URL) => void;

/**
 * The server's one `upgrade` listener: each WebSocket path (listen tunnels, terminal
 * readers) goes to its hub, with the account the request authenticated as (401/403
 * first, as any request gets). A handler refuses by throwing an ApiError, which answers
 * with the service's error body, as any request would get; unknown paths get a 404.
 */
export class UpgradeRouter {
  private readonly routes = new Map<string, UpgradeHandler>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly sandbox: Sandbox,
  ) {
    app.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => this.dispatch(request, socket, head));
  }

  /**
   * A WebSocket path; a plain request of it is told so (not taken for another route, as
   * an id), once authenticated: a caller without a valid key learns that first.
   */
  route(path: string, handler: UpgradeHandler): void {
    this.routes.set(path, handler);
    this.app.get(path, (request) => {
      authenticate(this.sandbox, request);
      throw new ApiError(400, 'websocket_required', `GET ${path} is a WebSocket endpoint: open it with an Upgrade: websocket request (pay webhooks listen and pay terminal simulate do).`);
    });
  }

  private dispatch(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const url = new URL(request.url ?? '/', 'http://localhost');
    try {
      const handler = this.routes.get(url.pathname);
      if (!handler) throw new ApiError(404, 'route_missing', `No such route: GET ${url.pathname} (WebSocket).`);
      handler(authenticate(this.sandbox, request), request, socket, head, url);
    } catch (error) {
      refuse(socket, error instanceof ApiError ? error : new ApiError(500, 'internal', 'An internal error occurred in the sandbox.'));
    }
  }
}

function refuse(socket: Duplex, error: ApiError): void {
  const body = JSON.stringify(error.toBody());
  socket.end(
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}\r\n` +
      'Content-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
