import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from './harness.js';

// Issue 12: requests that share a group commit are answered only once that commit is on
// disk. A sandbox SIGKILLed while many writes are in flight, restarted on the same
// database, still has every object it answered 2xx for, its events, and its replay.

const WRITES = 400;
const KILL_AFTER = 25;

let dir: string;
let sb: SandboxHandle;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pay-group-crash-'));
  sb = await startSandbox({ db: join(dir, 'sandbox.db') });
});
afterAll(async () => {
  await sb?.stop();
  rmSync(dir, { recursive: true, force: true });
});

it('keeps every write it answered 2xx across a SIGKILL amid concurrent writes', async () => {
  const pm = await sb.http('POST', '/v1/payment-methods', { type: 'card', card: { number: '4242424242424242', exp_month: 12, exp_year: 2045, cvc: '123' } });
  expect(pm.status).toBe(200);
  const body = { amount: 1000, currency: 'usd', payment_method_types: ['card'], payment_method_id: pm.body.id, confirm: true };

  const answered: Array<{ key: string; intent: Record<string, unknown> }> = [];
  let killed: Promise<void> | undefined;
  const writes = Array.from({ length: WRITES }, async () => {
    const key = randomUUID();
    const res = await sb.http('POST', '/v1/payment-intents', body, { 'idempotency-key': key }).catch(() => undefined);
    if (res?.status !== 200 || killed) return;
    answered.push({ key, intent: res.body });
    // Killed right after a 2xx, with the other writes still in flight.
    if (answered.length === KILL_AFTER) killed = sb.kill();
  });
  await Promise.all(writes);
  await killed;
  expect(killed).toBeDefined();
  expect(answered.length).toBeGreaterThanOrEqual(KILL_AFTER);
  expect(answered.length).toBeLessThan(WRITES);

  await sb.restart();
  for (const { key, intent } of answered) {
    const got = await sb.http('GET', `/v1/payment-intents/${intent.id as string}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(intent);
    const replay = await sb.http('POST', '/v1/payment-intents', body, { 'idempotency-key': key });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(intent);
  }
  const succeeded = new Set<string>();
  for (let after: string | undefined; ; ) {
    const page = await sb.http('GET', `/v1/events?type=payment_intent.succeeded&limit=100${after ? `&starting_after=${after}` : ''}`);
    for (const event of page.body.data) succeeded.add(event.data.object.id);
    if (!page.body.has_more) break;
    after = page.body.data.at(-1).id;
  }
  for (const { intent } of answered) expect(succeeded.has(intent.id as string)).toBe(true);
});
