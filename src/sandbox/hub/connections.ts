import type { WebSocket } from 'ws';

/** What a hub keeps of a connection for its heartbeat; the hub sets `alive` on every frame it receives. */
export interface Beating {
  ws: WebSocket;
  alive: boolean;
}

/**
 * The open connections of one WebSocket hub (listen tunnels, terminal readers) and their
 * heartbeat: every `intervalMs` each is pinged, and one that has sent nothing since the
 * previous ping is dropped.
 */
export class HubConnections<C extends Beating> implements Iterable<C> {
  private readonly open = new Set<C>();
  private readonly timer: NodeJS.Timeout;

  constructor(intervalMs: number, ping: (connection: C) => void) {
    this.timer = setInterval(() => {
      for (const connection of this.open) {
        if (!connection.alive) {
          connection.ws.terminate();
          continue;
        }
        connection.alive = false;
        ping(connection);
      }
    }, intervalMs).unref();
  }

  /** Kept until its socket closes. */
  add(connection: C): void {
    this.open.add(connection);
    connection.ws.on('close', () => this.open.delete(connection));
  }

  [Symbol.iterator](): Iterator<C> {
    return this.open[Symbol.iterator]();
  }

  /** Says goodbye (1001) to every client: they reconnect to the next sandbox. */
  close(): void {
    clearInterval(this.timer);
    for (const connection of this.open) {
      connection.ws.close(1001, 'sandbox stopping');
      setTimeout(() => connection.ws.terminate(), 200).unref();
    }
  }
}
