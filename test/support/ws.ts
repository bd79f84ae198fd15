import WebSocket from 'ws';

/**
 * Opens a WebSocket. The caller attaches its listeners to `ws` at once: a server's first
 * frame can arrive in the same tick as the open. `opened` rejects on a refused upgrade
 * with its status and parsed error body.
 */
export function openWebSocket(url: string, headers: Record<string, string>): { ws: WebSocket; opened: Promise<void> } {
  const ws = new WebSocket(url, { headers });
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode, body: JSON.parse(body) })));
    });
    ws.once('open', () => resolve());
  });
  return { ws, opened };
}
