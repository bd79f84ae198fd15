import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import type { Event } from '../domain/events.js';
import type { ServerFrame } from '../domain/listen.js';
import { until } from '../../test/support/wait.js';
import { Tunnel } from './tunnel.js';

// A service (or something in between) that sends a frame the tunnel cannot read must not
// kill `listen`: the tunnel says so and reconnects, resuming after its cursor.

const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const event: Event = { id: 'evt_after', object: 'event', type: 'customer.created', created: '2030-01-01T00:00:00Z', livemode: false, data: { object: { id: 'cus_1', object: 'customer', created: '2030-01-01T00:00:00Z', livemode: false } } };
const ready: ServerFrame = { type: 'ready', listener: null, after: null, cursor_source: 'latest', backlog: 0, heartbeat_ms: 10_000 };

it.each([
  ['not JSON', 'not json {'],
  ['JSON that is not a frame', 'null'],
  ['an event frame without its event', '{"type":"event"}'],
  ['an events frame with an event without its id', '{"type":"events","events":[{"type":"customer.created"}]}'],
])('a malformed frame (%s) is announced and the tunnel reconnects, receiving what follows', async (_name, malformed) => {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => wss.once('listening', resolve));
  cleanup.push(() => new Promise((resolve) => wss.close(resolve)));
  let connections = 0;
  wss.on('connection', (ws) => {
    ws.send(JSON.stringify(ready));
    // The first connection goes bad; the next one works.
    if (++connections === 1) ws.send(malformed);
    else ws.send(JSON.stringify({ type: 'events', events: [event] }));
  });

  const lost: string[] = [];
  const received: string[] = [];
  const tunnel = new Tunnel({
    baseUrl: `http://127.0.0.1:${(wss.address() as AddressInfo).port}`,
    headers: {},
    query: () => ({}),
    handlers: { ready: () => undefined, event: (e) => received.push(e.id), lost: (reason) => lost.push(reason) },
  });
  const running = tunnel.run();
  cleanup.push(() => (tunnel.stop(), running));
  await until(() => received, (ids) => ids.length > 0, 'the event after the reconnect');
  expect(received).toEqual(['evt_after']);
  expect(lost).toEqual(['the service sent a malformed frame']);
  expect(connections).toBe(2);
});
