import { afterEach, expect, it } from 'vitest';
import { inProcessSandbox } from '../../test/support/in-process.js';

// Work queued for after COMMIT (event-bus pushes to tunnels and readers, delivery
// wake-ups) runs once the request's changes are durable: one that throws must not turn
// the committed request into a 500, nor keep the callbacks after it from running.

let s: Awaited<ReturnType<typeof inProcessSandbox>> | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

it('a failing after-commit callback is logged; the request keeps its 2xx and the later callbacks run', async () => {
  s = await inProcessSandbox();
  const reported: unknown[] = [];
  s.sandbox.store.db.report = (error) => reported.push(error);
  // An endpoint wanting customer.created: the customer's event queues a delivery, whose wake-up is a later callback.
  const endpoint = await s.call('POST', '/v1/webhook-endpoints', { url: 'http://127.0.0.1:9/hook', enabled_events: ['customer.created'] });
  expect(endpoint.status).toBe(200);
  let wakeUps = 0;
  s.sandbox.store.deliveries.signal.on('queued', () => wakeUps++);
  // The event bus's callback runs first (the event is appended before its deliveries are queued).
  s.sandbox.store.events.bus.prependListener('event', () => {
    throw new Error('a tunnel push failed');
  });

  const created = await s.call('POST', '/v1/customers', { email: 'kept@example.com' });
  expect(created.status).toBe(200);
  expect(created.body).toMatchObject({ object: 'customer', email: 'kept@example.com' });
  expect(wakeUps).toBe(1);
  expect(reported).toEqual([new Error('a tunnel push failed')]);
  expect((await s.call('GET', `/v1/customers/${created.body.id}`)).status).toBe(200);
});
