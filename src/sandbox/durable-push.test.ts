import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { releaseSyncs, syncs } from '../../test/support/held-fsync.js';
import { Receiver } from '../../test/support/receiver.js';
import { startTestSandbox } from '../../test/support/sandboxes.js';
import { until } from '../../test/support/wait.js';
import { openWebSocket } from '../../test/support/ws.js';
import type { ServerFrame } from '../domain/listen.js';

// Events go out (to listen tunnels, to webhook endpoints) only once they are on disk. The
// disk's timing is what a test cannot run: while `hold` is set, each fdatasync waits until
// the test lets it go.
vi.mock('node:fs', async (original) => (await import('../../test/support/held-fsync.js')).holdingFdatasync(original));

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  releaseSyncs();
  for (const step of cleanup.splice(0).reverse()) await step();
});

it('pushes an event committed while the previous commit was syncing only once its own commit is on disk', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pay-durable-push-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  const app = await new Receiver().start();
  cleanup.push(() => app.stop());
  const sb = await startTestSandbox({ db: join(dir, 'sandbox.db') });
  cleanup.push(() => sb.close());
  const db = sb.sandbox.store.db;
  expect((await sb.call('POST', '/v1/webhook-endpoints', { url: app.url('/hook'), enabled_events: ['customer.created'] })).status).toBe(200);
  // What the delivery worker found to send, each time it looked.
  const deliveries = sb.sandbox.store.deliveries;
  const due = deliveries.due.bind(deliveries);
  const seen: string[] = [];
  deliveries.due = (...args) => {
    const found = due(...args);
    seen.push(...found.map((d) => d.event_id));
    return found;
  };
  const { ws, opened } = openWebSocket(`${sb.baseUrl.replace('http', 'ws')}/v1/listen?listener=lsn_durable01`, sb.headers);
  cleanup.push(() => ws.terminate());
  const frames: ServerFrame[] = [];
  ws.on('message', (data) => frames.push(JSON.parse(String(data)) as ServerFrame));
  await opened;
  await until(() => frames.length, (n) => n > 0, 'the ready frame');
  const pushed = () => frames.flatMap((f) => (f.type === 'events' ? f.events.map((e) => (e.data.object as unknown as { email: string }).email) : []));
  const posted = () => app.received.map((r) => r.event.data.object.email as string);

  syncs.hold = true;
  // The first customer's commit: its fdatasync is held.
  const first = sb.call('POST', '/v1/customers', { email: 'first@example.com' });
  await until(() => syncs.held.length, (n) => n === 1, 'the first commit to be syncing');
  // The second customer's request: the next group, open while that sync runs.
  const second = sb.call('POST', '/v1/customers', { email: 'second@example.com' });
  await until(() => db.inTransaction, Boolean, 'the next group to be open');

  // The first is on disk: it goes out; the second is committed now, its sync held.
  syncs.held.shift()!();
  await until(() => syncs.held.length, (n) => n === 1, 'the second commit to be syncing');
  await until(() => pushed(), (emails) => emails.length > 0, 'the first event through the tunnel');
  await until(() => posted(), (emails) => emails.length > 0, 'the first event at the endpoint');
  expect(pushed()).toEqual(['first@example.com']);
  expect(posted()).toEqual(['first@example.com']);
  const firstEvent = app.received[0]!.id;
  expect(seen).toEqual([firstEvent]);
  expect((await first).status).toBe(200);

  // Once the second is on disk, it goes out too, at once.
  releaseSyncs();
  expect((await second).status).toBe(200);
  await until(() => pushed(), (emails) => emails.length === 2, 'the second event through the tunnel');
  await until(() => posted(), (emails) => emails.length === 2, 'the second event at the endpoint');
  expect(pushed()).toEqual(['first@example.com', 'second@example.com']);
  expect(posted()).toEqual(['first@example.com', 'second@example.com']);
});
