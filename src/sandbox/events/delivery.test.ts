import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualScheduler } from '../../../test/support/manual-scheduler.js';
import { Receiver } from '../../../test/support/receiver.js';
import { until } from '../../../test/support/wait.js';
import { startTestSandbox, type TestSandbox } from '../../../test/support/sandboxes.js';
import { keyFileOf } from '../store/keys.js';
import { buildServer } from '../server.js';
import { RETRY_DELAYS_S, retryDelayMs } from './delivery.js';

describe('retry schedule', () => {
  it('is 1 s, 5 s, 30 s, 2 min, 10 min, 1 h, then hourly to 24 h after the first', () => {
    expect(RETRY_DELAYS_S.slice(0, 7)).toEqual([1, 5, 30, 120, 600, 3600, 3600]);
    const total = RETRY_DELAYS_S.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThanOrEqual(24 * 3600);
    expect(total).toBeLessThan(25 * 3600);
    expect(retryDelayMs(RETRY_DELAYS_S.length + 1, 1)).toBeUndefined();
  });

  it('jitters ±20 % and scales', () => {
    expect(retryDelayMs(1, 1, () => 0)).toBeCloseTo(800);
    expect(retryDelayMs(1, 1, () => 1)).toBeCloseTo(1200);
    expect(retryDelayMs(2, 0.001, () => 0.5)).toBeCloseTo(5);
  });
});

describe('webhook delivery', () => {
  const cleanup: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function setup(options: Parameters<typeof startTestSandbox>[0] = {}): Promise<{ sb: TestSandbox; app: Receiver; endpoint: any }> {
    const app = await new Receiver().start();
    cleanup.push(() => app.stop());
    const sb = await startTestSandbox({ webhookRetryScale: 0.002, ...options });
    cleanup.push(() => sb.close());
    const endpoint = (await sb.call('POST', '/v1/webhook-endpoints', { url: app.url('/hook?tenant=a'), enabled_events: ['customer.created'] })).body;
    app.secret = endpoint.secret;
    return { sb, app, endpoint };
  }

  it('delivers signed, retries after two 500s, and records every attempt', async () => {
    const { sb, app, endpoint } = await setup();
    let calls = 0;
    app.respond = () => (++calls <= 2 ? 500 : 200);
    const customer = (await sb.call('POST', '/v1/customers', { email: 'a@example.com' })).body;
    await app.waitFor(() => app.received.length === 3, 5_000, 'three attempts');
    const [first] = app.received;
    expect(first!.verified).toBe(true);
    expect(first!.path).toBe('/hook?tenant=a');
    expect(first!.event).toMatchObject({ object: 'event', type: 'customer.created', data: { object: { id: customer.id } } });
    expect(new Set(app.received.map((r) => r.id))).toEqual(new Set([first!.event.id]));

    const event = await until(async () => (await sb.call('GET', `/v1/events/${first!.id}`)).body, (e) => e.deliveries[0].status === 'succeeded', 'the delivery to be recorded');
    expect(event.deliveries).toHaveLength(1);
    expect(event.deliveries[0]).toMatchObject({ webhook_endpoint_id: endpoint.id, status: 'succeeded', next_attempt_at: null });
    expect(event.deliveries[0].attempts.map((a: any) => a.status_code)).toEqual([500, 500, 200]);
  });

  it('never shows the secret again and sends only the types asked for', async () => {
    const { sb, app, endpoint } = await setup();
    expect(endpoint.secret).toMatch(/^whsec_/);
    const fetched = (await sb.call('GET', `/v1/webhook-endpoints/${endpoint.id}`)).body;
    expect(fetched).not.toHaveProperty('secret');
    expect((await sb.call('GET', '/v1/webhook-endpoints')).body.data[0]).not.toHaveProperty('secret');
    const other = await sb.call('POST', '/v1/webhook-endpoints', { url: app.url('/pi'), subscription_group: 'payment_intent_events' });
    expect(other.body.enabled_events).toEqual(['payment_intent.*', 'charge.*']);
    await sb.call('POST', '/v1/customers', {});
    await app.waitFor(() => app.received.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(app.received.map((r) => r.path)).toEqual(['/hook?tenant=a']);
  });

  it('disables an endpoint that answers 410 and sends it nothing more', async () => {
    const { sb, app, endpoint } = await setup();
    app.respond = () => 410;
    await sb.call('POST', '/v1/customers', {});
    await app.waitFor(() => app.received.length === 1);
    const fetched = await until(async () => (await sb.call('GET', `/v1/webhook-endpoints/${endpoint.id}`)).body, (e) => e.status === 'disabled', 'the endpoint to be disabled');
    expect(fetched.disabled_reason).toContain('410');
    await sb.call('POST', '/v1/customers', {});
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(app.received).toHaveLength(1);
  });

  it('keeps in the log what each attempt in flight came to when a 410 disables the endpoint under them', async () => {
    const { sb, app, endpoint } = await setup();
    const disabled = () => until(async () => (await sb.call('GET', `/v1/webhook-endpoints/${endpoint.id}`)).body, (e) => e.status === 'disabled', 'the endpoint to be disabled');
    // Both are in flight before either is answered; the second is answered once the first's 410 disabled the endpoint.
    app.respond = async (request) => {
      await app.waitFor(() => app.received.length === 2);
      if (request === app.received[0]) return 410;
      await disabled();
      return 200;
    };
    await Promise.all([sb.call('POST', '/v1/customers', {}), sb.call('POST', '/v1/customers', {})]);
    await app.waitFor(() => app.received.length === 2);
    const [gone, taken] = app.received;
    const log = (id: string) => until(async () => (await sb.call('GET', `/v1/events/${id}`)).body.deliveries[0], (d) => d.status !== 'pending' && d.attempts.length > 0, 'the attempt recorded');
    expect(await log(gone!.id)).toMatchObject({ status: 'failed', attempts: [{ status_code: 410 }] });
    expect(await log(taken!.id)).toMatchObject({ status: 'succeeded', attempts: [{ status_code: 200 }] });
  });

  it('answers the request that caused the event without waiting for a slow endpoint', async () => {
    const { sb, app } = await setup();
    app.respond = () => new Promise((resolve) => setTimeout(() => resolve(200), 1_500));
    const started = Date.now();
    expect((await sb.call('POST', '/v1/customers', {})).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(500);
    await app.waitFor(() => app.received.length === 1);
  });

  it('times out an endpoint that trickles its answer, and retries it', async () => {
    const trickles: NodeJS.Timeout[] = [];
    let requests = 0;
    // The first answer: headers, then a byte every 20 ms, never done; the retry's: 200.
    const trickling = createServer((_req, res) => {
      if (++requests > 1) return res.writeHead(200).end();
      res.writeHead(200, { 'content-type': 'text/plain' });
      trickles.push(setInterval(() => res.write('.'), 20));
    });
    await new Promise<void>((resolve) => trickling.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise<void>((resolve) => {
      trickles.forEach(clearInterval);
      trickling.closeAllConnections();
      trickling.close(() => resolve());
    }));
    const sb = await startTestSandbox({ webhookRetryScale: 0.002, webhookTimeoutMs: 300 });
    cleanup.push(() => sb.close());
    await sb.call('POST', '/v1/webhook-endpoints', { url: `http://127.0.0.1:${(trickling.address() as AddressInfo).port}/hook`, enabled_events: ['customer.created'] });
    await sb.call('POST', '/v1/customers', {});
    const eventId = (await sb.call('GET', '/v1/events')).body.data.find((e: any) => e.type === 'customer.created').id;
    const delivery = await until(async () => (await sb.call('GET', `/v1/events/${eventId}`)).body.deliveries[0], (d) => d.status !== 'pending', 'the delivery to end');
    expect(delivery.status).toBe('succeeded');
    expect(delivery.attempts).toMatchObject([{ status_code: null, error: 'timeout' }, { status_code: 200, error: null }]);
  });

  it('keeps delivering to an endpoint while another holds its attempts unanswered', async () => {
    const stuck = await new Receiver().start();
    cleanup.push(() => stuck.stop());
    const held: Array<(status: number) => void> = [];
    stuck.respond = () => new Promise<number>((resolve) => held.push(resolve));
    cleanup.push(() => held.forEach((answer) => answer(200)));
    const { sb, app } = await setup({ webhookTimeoutMs: 60_000 });
    await sb.call('POST', '/v1/webhook-endpoints', { url: stuck.url('/hook'), enabled_events: ['customer.created'] });
    for (let i = 0; i < 20; i++) await sb.call('POST', '/v1/customers', {});
    // Unanswered for a minute, the stuck endpoint's attempts would take every slot.
    await app.waitFor(() => app.received.length === 20, 10_000, 'every event at the endpoint that answers');
    expect(held.length).toBeLessThan(20);
  });

  it('keeps deliveries due across a restart of the sandbox', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pay-delivery-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const db = join(dir, 'sandbox.db');
    const { sb, app } = await setup({ db, webhookRetryScale: 0.2 });
    app.respond = () => 503;
    const customer = (await sb.call('POST', '/v1/customers', {})).body;
    await app.waitFor(() => app.received.length === 1);
    await sb.close();
    app.respond = () => 200;
    const again = await startTestSandbox({ db, webhookRetryScale: 0.2 });
    cleanup.push(() => again.close());
    await app.waitFor(() => app.received.length === 2, 5_000, 'the retry after the restart');
    expect(app.received[1]!.event.data.object.id).toBe(customer.id);
    expect(app.received[1]!.verified).toBe(true);
  });

  it('disables, with the reason, an endpoint whose secret was sealed with a key file since lost', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pay-delivery-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const db = join(dir, 'sandbox.db');
    const { sb, endpoint } = await setup({ db });
    await sb.close();
    rmSync(keyFileOf(db));
    const again = await startTestSandbox({ db, webhookRetryScale: 0.002 });
    cleanup.push(() => again.close());
    const customer = (await again.call('POST', '/v1/customers', {})).body;
    const eventId = (await again.call('GET', '/v1/events')).body.data.find((e: any) => e.data.object.id === customer.id).id;
    const delivery = await until(async () => (await again.call('GET', `/v1/events/${eventId}`)).body.deliveries[0], (d) => d.status !== 'pending', 'the delivery to end');
    expect(delivery.status).toBe('canceled');
    // Silently enabled, it would take every later event and deliver none.
    const fetched = (await again.call('GET', `/v1/webhook-endpoints/${endpoint.id}`)).body;
    expect(fetched).toMatchObject({ status: 'disabled', disabled_reason: expect.stringContaining('key file') });
  });

  it('retries when due even if the system clock is set back while the retry waits', async () => {
    // First retry due 1 s (±20 %) after the first attempt.
    const { sb, app } = await setup({ webhookRetryScale: 1 });
    app.respond = () => (app.received.length === 1 ? 500 : 200);
    await sb.call('POST', '/v1/customers', {});
    await app.waitFor(() => app.received.length === 1);
    const eventId = app.received[0]!.id;
    await until(async () => (await sb.call('GET', `/v1/events/${eventId}`)).body.deliveries[0], (d) => d.attempts.length === 1, 'the first attempt to be recorded');
    // The wall clock goes back an hour (NTP, a VM resumed): a second to wait is still a second.
    const now = Date.now.bind(Date);
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => now() - 3_600_000);
    cleanup.push(() => clock.mockRestore());
    await app.waitFor(() => app.received.length === 2, 8_000, 'the retry');
  });

  it('retries on the time of its scheduler, not the wall clock\'s', async () => {
    const start = Date.parse('2030-01-15T00:00:00Z');
    const time = new ManualScheduler(start);
    const server = await buildServer({ db: ':memory:', clock: '2030-01-15T00:00:00Z', headerPrefix: 'pay' }, time);
    cleanup.push(() => server.app.close());
    const apiKey = 'sk_test_scheduler_abcdefghijklmnopqrstuvwxyz';
    const account = server.sandbox.addAccount({ id: 'acct_scheduler', apiKey }).id;
    const call = async (method: 'GET' | 'POST', url: string, body?: unknown) =>
      (await server.app.inject({ method, url, headers: { 'pay-account': account, 'pay-api-key': apiKey }, ...(body === undefined ? {} : { payload: body as object }) })).json();
    const app = await new Receiver().start();
    cleanup.push(() => app.stop());
    let calls = 0;
    app.respond = () => (++calls === 1 ? 500 : 200);
    await call('POST', '/v1/webhook-endpoints', { url: app.url('/hook'), enabled_events: ['customer.created'] });
    server.startBackground();
    await call('POST', '/v1/customers', {});

    const eventId = (await call('GET', '/v1/events')).data[0].id;
    const failed = await until(() => call('GET', `/v1/events/${eventId}`), (e) => e.deliveries[0].attempts.length === 1, 'the first attempt to be recorded');
    // Due 1 s (±20 %) after the scheduler's now, and waiting on its timer.
    const due = Date.parse(failed.deliveries[0].next_attempt_at) - start;
    expect(due).toBeGreaterThanOrEqual(800);
    expect(due).toBeLessThanOrEqual(1200);
    expect(Math.floor(time.nextIn()!)).toBe(due);
    expect(app.received).toHaveLength(1);

    time.advance(due + 1);
    await app.waitFor(() => app.received.length === 2, 5_000, 'the retry');
    await until(() => call('GET', `/v1/events/${eventId}`), (e) => e.deliveries[0].status === 'succeeded', 'the retry to be recorded');
  });
});
