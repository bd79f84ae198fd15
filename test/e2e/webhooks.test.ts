import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Receiver } from '../support/receiver.js';
import { until } from '../support/wait.js';
import { type SandboxHandle, startSandbox } from './harness.js';

let sb: SandboxHandle;
const app = new Receiver();
const dir = mkdtempSync(join(tmpdir(), 'pay-webhooks-e2e-'));
beforeAll(async () => {
  // Retries after 10 ms, 50 ms, 300 ms… instead of 1 s, 5 s, 30 s…; a file database, to restart.
  sb = await startSandbox({ clock: '2030-01-15', db: join(dir, 'sandbox.db'), env: { PAY_SANDBOX_RETRY_SCALE: '0.01' } });
  await app.start();
});
afterAll(async () => {
  await app.stop();
  await sb?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('pay webhooks endpoints: deliveries a real sandbox process makes, across its restart', () => {
  it('retries a delivery the endpoint answered 500 twice, and shows the attempts', async () => {
    const endpoint = await sb.json(['webhooks', 'endpoints', 'create', '--url', app.url('/endpoint?k=v'), '--enabled-events', 'customer.created']);
    app.secret = endpoint.secret;
    let calls = 0;
    app.respond = () => (++calls <= 2 ? 500 : 200);
    const customer = (await sb.http('POST', '/v1/customers', { email: 'retry@example.com' })).body;
    await app.waitFor(() => app.received.length === 3, 10_000, 'three attempts');
    expect(app.received.every((r) => r.verified === true && r.path === '/endpoint?k=v')).toBe(true);
    const id = app.received[0]!.id;
    expect(new Set(app.received.map((r) => r.id))).toEqual(new Set([id]));
    expect(app.received[0]!.event.data.object.id).toBe(customer.id);

    const event = await until(() => sb.json(['events', 'get', id]), (e) => e.deliveries[0]?.status === 'succeeded', 'the success to be recorded');
    expect(event.deliveries).toHaveLength(1);
    expect(event.deliveries[0]).toMatchObject({ webhook_endpoint_id: endpoint.id, url: app.url('/endpoint?k=v'), next_attempt_at: null });
    expect(event.deliveries[0].attempts.map((a: { status_code: number }) => a.status_code)).toEqual([500, 500, 200]);
    const shown = await sb.pay(['events', 'get', id]);
    expect(shown.stdout).toMatch(/^deliveries\t.*"status_code":500.*"status_code":500.*"status_code":200/m);
    await sb.json(['webhooks', 'endpoints', 'delete', endpoint.id, '--yes']);
  });

  it('keeps retrying across a sandbox restart', async () => {
    const endpoint = await sb.json(['webhooks', 'endpoints', 'create', '--url', app.url('/restart'), '--enabled-events', 'customer.*']);
    app.secret = endpoint.secret;
    app.received.length = 0;
    app.respond = () => 503;
    await sb.http('POST', '/v1/customers', {});
    await app.waitFor(() => app.received.length >= 2, 10_000, 'a failed attempt and a retry');
    await sb.restart();
    app.respond = () => 200;
    const before = app.received.length;
    await app.waitFor(() => app.received.length > before && app.received.at(-1)!.headers['webhook-id'] === app.received[0]!.id, 15_000, 'the retry after the restart');
    expect(app.received.at(-1)!.verified).toBe(true);
  });
});

describe('pay webhooks endpoints create at a TTY', () => {
  it('asks for what is missing (DESIGN section 8): the URL, then which events', async () => {
    const { exitCode, screen, unanswered } = await sb.atTTY(['webhooks', 'endpoints', 'create'], [
      ['Endpoint URL', `${app.url('/asked')}\r`],
      ['Which events', '\r'],
    ]);
    expect(unanswered).toEqual([]);
    expect(exitCode, screen).toBe(0);
    const [endpoint] = (await sb.http('GET', '/v1/webhook-endpoints?limit=1')).body.data;
    expect(endpoint).toMatchObject({ url: app.url('/asked'), subscription_group: 'payment_intent_events' });
    expect(screen).toContain('Save its signing secret now');
  });
});
