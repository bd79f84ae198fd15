import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { until } from './wait.js';

export interface Received {
  /** The webhook-id header: the event id. */
  id: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  event: any;
  /** Whether the signature verified with `secret` (undefined when none was set). */
  verified: boolean | undefined;
}

/**
 * A local app receiving webhooks: records every request, verifies signatures with
 * standardwebhooks, answers what `respond` says. It can be stopped and started again on
 * the same port, as a developer's app restarts.
 */
export class Receiver {
  readonly received: Received[] = [];
  secret: string | undefined;
  respond: (request: Received) => number | Promise<number> = () => 200;
  port = 0;
  private server: Server | undefined;

  async start(): Promise<this> {
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', async () => {
        const headers = req.headers;
        const one = (name: string) => String(headers[name] ?? '');
        let verified: boolean | undefined;
        if (this.secret !== undefined) {
          try {
            new Webhook(this.secret).verify(body, { 'webhook-id': one('webhook-id'), 'webhook-timestamp': one('webhook-timestamp'), 'webhook-signature': one('webhook-signature') });
            verified = true;
          } catch {
            verified = false;
          }
        }
        const received: Received = { id: one('webhook-id'), path: req.url ?? '', headers, body, event: body ? JSON.parse(body) : undefined, verified };
        this.received.push(received);
        res.statusCode = await this.respond(received);
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  /** Stops at once, dropping open connections, as a killed app would. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  ids(): Set<string> {
    return new Set(this.received.map((r) => r.id));
  }

  async waitFor(predicate: () => boolean, timeoutMs = 10_000, what = 'the receiver'): Promise<void> {
    await until(predicate, Boolean, what, timeoutMs);
  }
}
