import { type AddressInfo, connect, createServer, type Socket } from 'node:net';

export interface CuttingProxy {
  /** The service's base URL, through the proxy. */
  baseUrl: string;
  /** How many times it cut a connection. */
  cuts(): number;
  close(): Promise<void>;
}

/**
 * A TCP proxy in front of the service at `target` that cuts the connection once: at the
 * first chunk from the service that `cut` matches, that chunk is dropped and both sockets
 * are destroyed, as a network that fails at that moment does. Later connections pass through.
 */
export async function cuttingProxy(target: string, cut: (chunk: Buffer) => boolean): Promise<CuttingProxy> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  let cuts = 0;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  };
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    track(client);
    track(upstream);
    const cutNow = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk) => {
      if (cuts === 0 && cut(chunk)) {
        cuts++;
        return cutNow();
      }
      client.write(chunk);
    });
    client.on('close', cutNow);
    upstream.on('close', cutNow);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cuts: () => cuts,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
