import type { IncomingMessage } from 'node:http';
import { type WebSocket, WebSocketServer } from 'ws';
import type { Timer } from '../../infra/time.js';
import type { Sandbox } from '../sandbox.js';
import type { Account } from '../store/accounts.js';
import type { UpgradeRouter } from './upgrade.js';

/** What a hub keeps of every connection: its socket, and whether it spoke since the last ping. */
export interface HubConnection {
  ws: WebSocket;
  alive: boolean;
}

/**
 * What the two WebSocket hubs (listen tunnels, terminal readers) share: their path on
 * the one upgrade listener (which authenticates, as every request is), JSON frames, and the
 * heartbeat: every `heartbeatMs` each connection is pinged, and one that has sent nothing
 * since the previous ping is dropped. The heartbeat runs from start() to close().
 */
export abstract class WebSocketHub<C extends HubConnection, Frame extends { type: string }> {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  private readonly open = new Set<C>();
  private heartbeat: Timer | undefined;
  protected closed = false;

  constructor(
    protected readonly sandbox: Sandbox,
    upgrades: UpgradeRouter,
    path: string,
    protected readonly heartbeatMs: number,
  ) {
    upgrades.route(path, (account, request, socket, head, url) => {
      const connect = this.accept(account, url, request);
      this.wss.handleUpgrade(request, socket, head, (ws) => {
        const connection = connect(ws);
        this.open.add(connection);
        ws.on('message', (data) => {
          connection.alive = true;
          this.receive(connection, String(data));
        });
        ws.on('close', () => {
          this.open.delete(connection);
          this.disconnected(connection);
        });
        ws.on('error', () => ws.terminate());
        this.connected(connection);
      });
    });
  }

  /**
   * Checks an upgrade request before the socket is taken over (an ApiError refuses it
   * with the service's error body) and returns how to make its connection.
   */
  protected abstract accept(account: Account, url: URL, request: IncomingMessage): (ws: WebSocket) => C;
  /** The connection is open and kept: the place for a first frame. */
  protected abstract connected(connection: C): void;
  protected abstract receive(connection: C, text: string): void;
  protected disconnected(_connection: C): void {}

  /** The open connections. */
  protected connections(): Iterable<C> {
    return this.open;
  }

  protected send(connection: C, frame: Frame | { type: 'ping' }): void {
    if (connection.ws.readyState === connection.ws.OPEN) connection.ws.send(JSON.stringify(frame));
  }

  /** Starts the heartbeat. */
  start(): void {
    const beat = () => {
      if (this.closed) return;
      for (const connection of this.open) {
        if (!connection.alive) {
          connection.ws.terminate();
          continue;
        }
        connection.alive = false;
        this.send(connection, { type: 'ping' });
      }
      this.heartbeat = this.sandbox.scheduler.after(this.heartbeatMs, beat);
    };
    this.heartbeat = this.sandbox.scheduler.after(this.heartbeatMs, beat);
  }

  /** Says goodbye (1001) to every client: they reconnect to the next sandbox. */
  close(): void {
    this.closed = true;
    this.heartbeat?.cancel();
    for (const connection of this.open) {
      connection.ws.close(1001, 'sandbox stopping');
      this.sandbox.scheduler.after(200, () => connection.ws.terminate());
    }
    this.wss.close();
  }
}
