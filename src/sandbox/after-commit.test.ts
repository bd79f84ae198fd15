import { afterEach, expect, it } from 'vitest';
import { inProcessSandbox } from '../../test/support/in-process.js';

// Work queued for after COMMIT (pushes to listen tunnels, delivery wake-ups) runs once the
// request's changes are durable: one that throws must not turn the committed request into
// a 500, nor keep the callbacks after it from running.

let s: Awaited<ReturnType<typeof inProcessSandbox>> | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

it('a failing after-commit callback is logged; the request keeps its 2xx and the later callbacks run', async () => {
  s = await inProcessSandbox();
  const db = s.sandbox.store.db;
  const reported: unknown[] = [];
  db.report = (error) => reported.push(error);
  // An endpoint wanting customer.created: the customer's event also queues a delivery, whose wake-up is a later callback.
  expect((await s.call('POST', '/v1/webhook-endpoints', { url: 'http://127.0.0.1:9/hook', enabled_events: ['customer.created'] })).status).toBe(200);
  // The request's first callback is preceded by one that throws; each of its own is counted as it runs.
  const onCommit = db.onCommit.bind(db);
  let queued = 0;
  let ran = 0;
  db.onCommit = (callback) => {
    if (queued++ === 0) onCommit(() => {
      throw new Error('a tunnel push failed');
    });
    onCommit(() => {
      ran++;
      callback();
    });
  };

  const created = await s.call('POST', '/v1/customers', { email: 'kept@example.com' });
  expect(created.status).toBe(200);
  expect(created.body).toMatchObject({ object: 'customer', email: 'kept@example.com' });
  expect(queued).toBeGreaterThanOrEqual(2); // the event's push and the deliveries' wake-up
  expect(ran).toBe(queued);
  expect(reported).toEqual([new Error('a tunnel push failed')]);
  expect((await s.call('GET', `/v1/customers/${created.body.id}`)).status).toBe(200);
});
