import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inProcessSandbox } from '../../test/support/in-process.js';
import { Client } from '../client/client.js';
import { NetworkError } from '../client/errors.js';
import { ApiError } from '../domain/errors.js';
import { acquireLock } from '../infra/pid-lock.js';
import { type ItemResult, lockFile, readJournal } from './journal.js';
import { findPastDue } from './past-due.js';
import { createBatch, journalFile, listBatches, openBatch, runRetryBatch } from './retry-batch.js';

// The engine against a real sandbox listening on a loopback port, through the real client.

const GOOD = '4242424242424242';
const DECLINED = '4000000000000002';
const NO_FUNDS = '4000000000009995';
const EXPIRED = '4000000000000069';
const HALF = '4000000000005555';

let s: Awaited<ReturnType<typeof inProcessSandbox>>;
let client: Client;
let dir: string;

beforeEach(async () => {
  s = await inProcessSandbox({ clock: '2030-01-15T00:00:00Z' });
  await s.app.listen({ port: 0, host: '127.0.0.1' });
  client = clientAt(`http://127.0.0.1:${(s.app.server.address() as AddressInfo).port}`);
  dir = mkdtempSync(join(tmpdir(), 'pay-batch-'));
});
afterEach(async () => {
  await client.close();
  await s.close();
  rmSync(dir, { recursive: true, force: true });
});

const clientAt = (baseUrl: string) => new Client({ baseUrl, account: s.account.id, apiKey: s.apiKey, headerPrefix: 'pay', retries: 0 });

async function ok(method: string, url: string, body?: unknown) {
  const res = await s.call(method, url, body);
  expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}

async function card(customer: string, number: string): Promise<string> {
  const pm = await ok('POST', '/v1/payment-methods', { type: 'card', card: { number, exp_month: 12, exp_year: 2040, cvc: '123' } });
  await ok('PUT', `/v1/payment-methods/${pm.id}/attach`, { customer_id: customer });
  return pm.id;
}

/** n subscriptions whose first payment (2030-01-16) was declined, newest first (the order of lists and batches). */
async function pastDue(n: number, options: { customer?: string; number?: string } = {}): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const customer = options.customer ?? (await ok('POST', '/v1/customers', { email: `c${i}@example.com` })).id;
    const pm = await card(customer, options.number ?? DECLINED);
    const sub = await ok('POST', '/v1/subscriptions', { customer_id: customer, payment_method_id: pm, price: 1000 + i, billing_cycle_anchor: '2030-01-16', interval_unit: 'month', interval_count: 1 });
    ids.push(sub.id);
  }
  await ok('POST', '/v1/test-helpers/clock/advance', { to: '2030-01-16' });
  return ids.reverse();
}

/** Gives a subscription a card that will pay. */
async function fix(id: string, number = GOOD): Promise<void> {
  const sub = await ok('GET', `/v1/subscriptions/${id}`);
  await ok('POST', `/v1/subscriptions/${id}`, { payment_method_id: await card(sub.customer_id, number) });
}

const intents = async (id: string): Promise<Array<{ id: string; status: string }>> => (await ok('GET', `/v1/payment-intents?subscription_id=${id}&limit=100`)).data;
const statusOf = async (id: string): Promise<string> => (await ok('GET', `/v1/subscriptions/${id}`)).status;

async function newBatch(ids?: string[], includeUnchanged = false) {
  const { data } = await findPastDue(client, { only: ids });
  return createBatch({ dir, account: s.account.id, base_url: client.baseUrl, selection: { customer_id: null, only: ids ?? null, include_unchanged: includeUnchanged }, items: data });
}

describe('findPastDue', () => {
  it('pages through every past_due subscription with its last failure and since when', async () => {
    const [active] = await pastDue(1, { number: GOOD });
    const ids = await pastDue(5);
    await ok('POST', '/v1/test-helpers/clock/advance', { to: '2030-01-20' });
    await fix(ids[1]!, NO_FUNDS);
    expect((await s.call('POST', `/v1/subscriptions/${ids[1]}/retry`)).status).toBe(402);

    const all = await findPastDue(client, { pageSize: 2 });
    expect(all.has_more).toBe(false);
    expect(all.data.map((p) => p.subscription_id)).toEqual(ids);
    expect(all.data.map((p) => p.subscription_id)).not.toContain(active);
    const retried = all.data[1]!;
    const [latest] = await intents(ids[1]!);
    // Past due since the first failure; the decline is the latest one's, on the card it was retried with.
    const method = (await ok('GET', `/v1/subscriptions/${ids[1]}`)).payment_method_id;
    expect(retried).toMatchObject({
      status: 'past_due', amount: 1003, currency: 'usd', past_due_since: '2030-01-16T00:00:00Z', payment_intent_id: latest!.id,
      decline_code: 'insufficient_funds', decline_type: 'soft', failed_payment_method_id: method, payment_method_changed: false,
    });
    expect(retried.decline_message).toContain('insufficient funds');
    expect(all.data[0]).toMatchObject({ past_due_since: '2030-01-16T00:00:00Z', decline_code: 'card_declined', decline_type: 'soft', payment_method_changed: false });
    // A new card since the failure is a changed payment method.
    await fix(ids[3]!);
    const [changed] = (await findPastDue(client, { only: [ids[3]!] })).data;
    expect(changed).toMatchObject({ decline_code: 'card_declined', payment_method_changed: true });
    expect(changed!.failed_payment_method_id).not.toBe(changed!.payment_method_id);

    const limited = await findPastDue(client, { pageSize: 2, limit: 3 });
    expect(limited.data.map((p) => p.subscription_id)).toEqual(ids.slice(0, 3));
    expect(limited.has_more).toBe(true);
    expect((await findPastDue(client, { limit: 5 })).has_more).toBe(false);

    const customer = (await ok('GET', `/v1/subscriptions/${ids[2]}`)).customer_id;
    expect((await findPastDue(client, { customer })).data.map((p) => p.subscription_id)).toEqual([ids[2]]);

    const only = await findPastDue(client, { only: [active!, ids[2]!, active!] });
    expect(only.data.map((p) => [p.subscription_id, p.status, p.decline_code, p.payment_method_changed])).toEqual([[active, 'active', null, null], [ids[2], 'past_due', 'card_declined', false]]);
  });
});

describe('listBatches', () => {
  it('names a journal whose header is torn, but not one being created (its lock held by a live process, its header not written yet)', async () => {
    const path = journalFile(dir, 'batch_20300116T000000Z_abcdef');
    writeFileSync(path, '');
    const release = await acquireLock(lockFile(path));
    const unreadable: string[] = [];
    try {
      expect(await listBatches(dir, (problem) => unreadable.push(problem))).toEqual([]);
      expect(unreadable).toEqual([]);
    } finally {
      await release();
    }
    expect(await listBatches(dir, (problem) => unreadable.push(problem))).toEqual([]);
    expect(unreadable).toEqual([`${path} is not a batch journal: it has no complete first line.`]);
  });
});

describe('runRetryBatch', () => {
  it('retries each item with a changed card once, skips the unchanged ones with the reason, all journaled', async () => {
    const ids = await pastDue(4);
    await fix(ids[0]!);
    await fix(ids[2]!, DECLINED);
    const batch = await newBatch();
    const seen: ItemResult[] = [];
    const report = await runRetryBatch({ client, batch, concurrency: 3, onResult: (r) => seen.push(r) });

    expect(report.error).toBeUndefined();
    expect(report.interrupted).toBe(false);
    expect(report.remaining).toEqual([]);
    const outcome = Object.fromEntries(report.results.map((r) => [r.subscription_id, [r.outcome, r.status, r.decline_code, r.skip_reason]]));
    expect(outcome).toEqual({
      [ids[0]!]: ['succeeded', 'active', null, null],
      [ids[1]!]: ['skipped', 'past_due', 'card_declined', 'unchanged_soft_decline'],
      [ids[2]!]: ['failed', 'past_due', 'card_declined', null],
      [ids[3]!]: ['skipped', 'past_due', 'card_declined', 'unchanged_soft_decline'],
    });
    expect(seen.map((r) => r.subscription_id).sort()).toEqual([...ids].sort());
    for (const id of [ids[0]!, ids[2]!]) {
      const list = await intents(id);
      expect(list).toHaveLength(2);
      expect(report.results.find((r) => r.subscription_id === id)!.payment_intent_id).toBe(list[0]!.id);
    }
    // Skipped: no request, the failed intent kept for the record.
    for (const id of [ids[1]!, ids[3]!]) {
      const list = await intents(id);
      expect(list).toHaveLength(1);
      expect(report.results.find((r) => r.subscription_id === id)).toMatchObject({ payment_intent_id: list[0]!.id, idempotency_key: null, message: expect.stringContaining('--include-unchanged') });
    }
    expect(await statusOf(ids[0]!)).toBe('active');
    expect(await statusOf(ids[1]!)).toBe('past_due');

    await batch.journal.close();
    const lines = readFileSync(batch.journal.path, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.type === 'started')).toHaveLength(2);
    expect(lines.filter((l) => l.type === 'result')).toHaveLength(4);
    // Each key was journaled before its result, and the result names the same key.
    for (const r of report.results.filter((r) => r.outcome !== 'skipped')) {
      const started = lines.findIndex((l) => l.type === 'started' && l.idempotency_key === r.idempotency_key);
      const done = lines.findIndex((l) => l.type === 'result' && l.subscription_id === r.subscription_id);
      expect(started).toBeGreaterThan(0);
      expect(started).toBeLessThan(done);
    }
  });

  it('after a crash, replays a started item with its journaled key: the service answers the first outcome, nothing is charged twice', async () => {
    const ids = await pastDue(3);
    for (const id of ids) await fix(id);
    const first = await newBatch();
    // The crash: sub 0's request was sent and answered, its result never written; sub 1's
    // key was written but its request never left; sub 2 was not started.
    await first.journal.started(ids[0]!, 'key-sent', first.state.header.items[0]!.payment_intent_id);
    await client.call('subscriptions.retry', { params: { id: ids[0]! }, idempotencyKey: 'key-sent' });
    await first.journal.started(ids[1]!, 'key-unsent', first.state.header.items[1]!.payment_intent_id);
    await first.journal.close();

    const resumed = await openBatch(first.journal.path);
    const fresh: string[] = [];
    const report = await runRetryBatch({ client, batch: resumed, concurrency: 2, newKey: () => `key-fresh-${fresh.push('x')}` });
    await resumed.journal.close();

    expect(report.results.map((r) => [r.subscription_id, r.outcome, r.status, r.idempotency_key])).toEqual([
      [ids[0], 'succeeded', 'active', 'key-sent'],
      [ids[1], 'succeeded', 'active', 'key-unsent'],
      [ids[2], 'succeeded', 'active', 'key-fresh-1'],
    ]);
    for (const id of ids) {
      const list = await intents(id);
      expect(list.map((pi) => pi.status)).toEqual(['succeeded', 'requires_payment_method']);
    }
    // The replayed answer names the intent of the first (only) attempt.
    expect(report.results[0]!.payment_intent_id).toBe((await intents(ids[0]!))[0]!.id);
  });

  it('after a crash, sends a started item whose request never left, even when another attempt came between its selection and its turn', async () => {
    const [id] = await pastDue(1);
    await fix(id!, NO_FUNDS);
    const first = await newBatch();
    // Before its turn, support retries it by hand (declined again), then gives it a card that pays.
    expect((await s.call('POST', `/v1/subscriptions/${id}/retry`)).status).toBe(402);
    await fix(id!);
    // Its turn: the key is journaled, and the service is unreachable as the retry is sent.
    const down: typeof client = Object.create(client);
    down.call = async <T>(name: Parameters<Client['call']>[0], options: Parameters<Client['call']>[1] = {}): Promise<T> => {
      if (name === 'subscriptions.retry') throw new NetworkError('Could not reach the service.', client.baseUrl);
      return client.call<T>(name, options);
    };
    expect((await runRetryBatch({ client: down, batch: first, concurrency: 1 })).error).toBeInstanceOf(NetworkError);
    await first.journal.close();

    const resumed = await openBatch(first.journal.path);
    const report = await runRetryBatch({ client, batch: resumed, concurrency: 1 });
    await resumed.journal.close();
    expect(report.results.map((r) => [r.outcome, r.status, r.idempotency_key === resumed.state.keys.get(id!)])).toEqual([['succeeded', 'active', true]]);
    expect((await intents(id!)).map((pi) => pi.status)).toEqual(['succeeded', 'requires_payment_method', 'requires_payment_method']);
  });

  it('resumed after the service forgot its keys (a day on), takes a started item\'s attempt as its result: never a second attempt, never a paid one called skipped', async () => {
    const ids = await pastDue(3);
    await fix(ids[0]!);
    await fix(ids[1]!, NO_FUNDS);
    const first = await newBatch(undefined, true);
    // The crash: subs 0 and 1 were sent and answered (paid; declined again), their results never written.
    for (const id of ids.slice(0, 2)) {
      await first.journal.started(id, `key-${id}`, first.state.header.items.find((item) => item.subscription_id === id)!.payment_intent_id);
      await client.call('subscriptions.retry', { params: { id }, idempotencyKey: `key-${id}` }).catch(() => undefined);
    }
    await first.journal.close();
    // Two days on, the service no longer knows those keys.
    await ok('POST', '/v1/test-helpers/clock/advance', { days: 2 });

    const resumed = await openBatch(first.journal.path);
    const report = await runRetryBatch({ client, batch: resumed, concurrency: 1, newKey: () => 'key-fresh' });
    await resumed.journal.close();

    const paid = (await intents(ids[0]!))[0]!;
    const declined = (await intents(ids[1]!))[0]!;
    expect(report.results.map((r) => [r.subscription_id, r.outcome, r.status, r.decline_code, r.payment_intent_id])).toEqual([
      [ids[0], 'succeeded', 'active', null, paid.id],
      [ids[1], 'failed', 'past_due', 'insufficient_funds', declined.id],
      [ids[2], 'failed', 'past_due', 'card_declined', (await intents(ids[2]!))[0]!.id],
    ]);
    // One attempt each from this batch: the first decline and the batch's retry.
    for (const id of ids) expect((await intents(id)).map((pi) => pi.status)).toHaveLength(2);
  });

  it('after a crash, a started item its retry paid is succeeded even when paused or canceled before the resume: never a paid one called skipped', async () => {
    const ids = await pastDue(2);
    for (const id of ids) await fix(id);
    const first = await newBatch();
    // The crash: both were sent and paid, their results never written; then support pauses one and cancels the other.
    for (const [i, id] of ids.entries()) {
      await first.journal.started(id, `key-${id}`, first.state.header.items[i]!.payment_intent_id);
      await client.call('subscriptions.retry', { params: { id }, idempotencyKey: `key-${id}` });
    }
    await first.journal.close();
    await ok('POST', `/v1/subscriptions/${ids[0]}/pause`);
    await ok('POST', `/v1/subscriptions/${ids[1]}/cancel`);

    const resumed = await openBatch(first.journal.path);
    const report = await runRetryBatch({ client, batch: resumed, concurrency: 1 });
    await resumed.journal.close();
    expect(report.results.map((r) => [r.subscription_id, r.outcome, r.status, r.skip_reason, r.payment_intent_id])).toEqual([
      [ids[0], 'succeeded', 'paused', null, (await intents(ids[0]!))[0]!.id],
      [ids[1], 'succeeded', 'canceled', null, (await intents(ids[1]!))[0]!.id],
    ]);
    for (const id of ids) expect((await intents(id)).map((pi) => pi.status)).toEqual(['succeeded', 'requires_payment_method']);
  });

  it('after a crash, a started item its retry paid is succeeded even when a later scheduled payment failed before the resume: its result is its own attempt, not the latest', async () => {
    const [id] = await pastDue(1);
    await fix(id!);
    const first = await newBatch();
    // The crash: sent and paid, its result never written; then the card is replaced by one that declines, and the next month's payment fails.
    await first.journal.started(id!, 'key-paid', first.state.header.items[0]!.payment_intent_id);
    await client.call('subscriptions.retry', { params: { id: id! }, idempotencyKey: 'key-paid' });
    await first.journal.close();
    await fix(id!, DECLINED);
    await ok('POST', '/v1/test-helpers/clock/advance', { to: '2030-02-16' });
    expect(await statusOf(id!)).toBe('past_due');

    const resumed = await openBatch(first.journal.path);
    const report = await runRetryBatch({ client, batch: resumed, concurrency: 1 });
    await resumed.journal.close();
    const [scheduled, paid] = await intents(id!);
    expect([scheduled!.status, paid!.status]).toEqual(['requires_payment_method', 'succeeded']);
    expect(report.results.map((r) => [r.outcome, r.decline_code, r.payment_intent_id])).toEqual([['succeeded', null, paid!.id]]);
  });

  it('a retry that captured part of the price (partial authorization) is succeeded, its subscription active, with what it received and the difference to charge', async () => {
    const ids = await pastDue(2);
    for (const id of ids) await fix(id, HALF);
    const first = await newBatch();
    // Sub 1's retry was sent and answered before a crash; its result was never written.
    await first.journal.started(ids[1]!, 'key-sent', first.state.header.items[1]!.payment_intent_id);
    await client.call('subscriptions.retry', { params: { id: ids[1]! }, idempotencyKey: 'key-sent' });
    await first.journal.close();

    const resumed = await openBatch(first.journal.path);
    const report = await runRetryBatch({ client, batch: resumed, concurrency: 1 });
    await resumed.journal.close();
    // Half the price, rounded down, is captured (ids newest first: 1001, then 1000).
    expect(report.results.map((r) => [r.subscription_id, r.outcome, r.status, r.amount, r.amount_received, r.partial])).toEqual([
      [ids[0], 'succeeded', 'active', 1001, 500, true],
      [ids[1], 'succeeded', 'active', 1000, 500, true],
    ]);
    expect(report.results[0]!.message).toBe('partial authorization: $5.00 of $10.01 received; charge the $5.01 difference in another payment');
    for (const id of ids) expect((await ok('GET', `/v1/payment-intents/${(await intents(id))[0]!.id}`)).amount_received).toBe(500);
    // The journal keeps it: a finished batch's record, again, says the same.
    expect([...(await readJournal(resumed.journal.path)).results.values()].map((r) => [r.amount_received, r.partial])).toEqual([[500, true], [500, true]]);
  });

  it('a retry paid in full received the price: not partial', async () => {
    const [id] = await pastDue(1);
    await fix(id!);
    const batch = await newBatch();
    const report = await runRetryBatch({ client, batch, concurrency: 1 });
    await batch.journal.close();
    expect(report.results.map((r) => [r.outcome, r.amount_received, r.partial, r.message])).toEqual([['succeeded', 1000, false, null]]);
  });

  it('with include_unchanged also retries an unchanged card after a soft decline, never after a hard one', async () => {
    const [hard] = await pastDue(1, { number: EXPIRED });
    const [soft] = await pastDue(1, { number: NO_FUNDS });
    const batch = await newBatch(undefined, true);
    const report = await runRetryBatch({ client, batch, concurrency: 2 });
    await batch.journal.close();
    expect(report.results.map((r) => [r.subscription_id, r.outcome, r.decline_code, r.skip_reason])).toEqual([
      [soft, 'failed', 'insufficient_funds', null],
      [hard, 'skipped', 'expired_card', 'unchanged_hard_decline'],
    ]);
    expect(await intents(soft!)).toHaveLength(2);
    expect(await intents(hard!)).toHaveLength(1);
  });

  it('when the service rate limits, goes on with fewer at once and sends the same retry again with its key', async () => {
    const ids = await pastDue(4);
    for (const id of ids) await fix(id);
    const batch = await newBatch();
    let limited = 3;
    const keys = new Map<string, Set<string>>();
    const busy: typeof client = Object.create(client);
    busy.call = async <T>(name: Parameters<Client['call']>[0], options: Parameters<Client['call']>[1] = {}): Promise<T> => {
      if (name === 'subscriptions.retry') {
        const id = String(options.params?.id);
        keys.set(id, (keys.get(id) ?? new Set()).add(String(options.idempotencyKey)));
        if (limited-- > 0) throw new ApiError(429, 'rate_limited', 'Too many requests.');
      }
      return client.call<T>(name, options);
    };
    const slower: number[] = [];
    const report = await runRetryBatch({ client: busy, batch, concurrency: 4, onRateLimited: (n) => slower.push(n), rateLimitWait: () => 0 });
    await batch.journal.close();
    expect(report.error).toBeUndefined();
    expect(report.results.map((r) => r.outcome)).toEqual(Array(4).fill('succeeded'));
    expect(slower[0]).toBe(2);
    expect(slower.at(-1)).toBe(1);
    for (const id of ids) {
      expect(keys.get(id)!.size, 'one key per subscription, however often sent').toBe(1);
      expect(await intents(id)).toHaveLength(2);
    }
  });

  it('when the service rate limits its reads too (selection, each item\'s check, what a retry paid), waits and goes on: the batch finishes', async () => {
    const ids = await pastDue(3);
    for (const id of ids) await fix(id);
    // Every other read is answered 429, as a service past its rate answers any request.
    let reads = 0;
    const busy: typeof client = Object.create(client);
    busy.call = async <T>(name: Parameters<Client['call']>[0], options: Parameters<Client['call']>[1] = {}): Promise<T> => {
      if (name !== 'subscriptions.retry' && reads++ % 2 === 0) throw new ApiError(429, 'rate_limited', 'Too many requests.');
      return client.call<T>(name, options);
    };
    const { data } = await findPastDue(busy, { rateLimitWait: () => 0 });
    expect(data.map((item) => item.subscription_id)).toEqual(ids);
    const batch = await createBatch({ dir, account: s.account.id, base_url: client.baseUrl, selection: { customer_id: null, only: null, include_unchanged: false }, items: data });
    const report = await runRetryBatch({ client: busy, batch, concurrency: 2, rateLimitWait: () => 0 });
    await batch.journal.close();
    expect(report.error).toBeUndefined();
    expect(report.results.map((r) => r.outcome)).toEqual(Array(3).fill('succeeded'));
    for (const id of ids) expect(await intents(id)).toHaveLength(2);
  });

  it('stopped (Ctrl-C) while the service rate limits it, is interrupted at once, not failed: the item stays started for the resume', async () => {
    const [id] = await pastDue(1);
    await fix(id!);
    const batch = await newBatch();
    const busy: typeof client = Object.create(client);
    busy.call = async <T>(name: Parameters<Client['call']>[0], options: Parameters<Client['call']>[1] = {}): Promise<T> => {
      if (name === 'subscriptions.retry') throw new ApiError(429, 'rate_limited', 'Too many requests.');
      return client.call<T>(name, options);
    };
    const abort = new AbortController();
    // Ctrl-C as the batch starts waiting out the rate limit, for longer than any test runs.
    const waitAnHour = () => (abort.abort(), 60 * 60 * 1000);
    const report = await runRetryBatch({ client: busy, batch, concurrency: 1, signal: abort.signal, rateLimitWait: waitAnHour });
    await batch.journal.close();
    expect(report.error).toBeUndefined();
    expect(report.interrupted).toBe(true);
    expect(report.remaining.map((item) => item.subscription_id)).toEqual([id]);
    expect((await readJournal(batch.journal.path)).keys.has(id!)).toBe(true);
  });

  it('skips items no longer past_due at retry time, with their status', async () => {
    const ids = await pastDue(2);
    await fix(ids[0]!);
    await fix(ids[1]!);
    const batch = await newBatch();
    await ok('POST', `/v1/subscriptions/${ids[0]}/retry`);
    await ok('POST', `/v1/subscriptions/${ids[1]}/cancel`);
    const report = await runRetryBatch({ client, batch, concurrency: 4 });
    await batch.journal.close();
    expect(report.results.map((r) => [r.outcome, r.status, r.skip_reason, r.message])).toEqual([
      ['skipped', 'active', 'not_past_due', 'status active: nothing to retry'],
      ['skipped', 'canceled', 'not_past_due', 'status canceled: nothing to retry'],
    ]);
    expect(await intents(ids[0]!)).toHaveLength(2);
    expect(await intents(ids[1]!)).toHaveLength(1);
  });

  it('never retries a past_due subscription whose failed intent was since paid directly: it stays past_due (spec section 3 rule 2), and a retry would charge the customer again', async () => {
    const [id] = await pastDue(1);
    const [failed] = await intents(id!);
    // The customer paid with a new card, which is the subscription's card from now on.
    await fix(id!);
    const { payment_method_id } = await ok('GET', `/v1/subscriptions/${id}`);
    await ok('POST', `/v1/payment-intents/${failed!.id}/confirm`, { payment_method_id });
    expect(await statusOf(id!)).toBe('past_due');
    const batch = await newBatch(undefined, true);
    const report = await runRetryBatch({ client, batch, concurrency: 1 });
    await batch.journal.close();
    expect(report.results.map((r) => [r.outcome, r.status, r.skip_reason, r.payment_intent_id, r.idempotency_key])).toEqual([['skipped', 'past_due', 'latest_payment_succeeded', failed!.id, null]]);
    expect(report.results[0]!.message).toContain('a retry would charge again');
    expect(await intents(id!)).toHaveLength(1);
    expect(batch.state.header.items[0]).toMatchObject({ payment_intent_id: failed!.id, payment_intent_status: 'succeeded', decline_code: null });
  });

  it('does not charge a subscription whose failed intent the customer paid directly after the batch selected it: skipped, still past_due', async () => {
    const [id] = await pastDue(1);
    const [failed] = await intents(id!);
    await fix(id!);
    const batch = await newBatch();
    // Between the batch's last look at the subscription and its retry, the customer pays the failed intent (the dunning email's link).
    const { payment_method_id } = await ok('GET', `/v1/subscriptions/${id}`);
    const paying: typeof client = Object.create(client);
    paying.call = async <T>(name: Parameters<Client['call']>[0], options: Parameters<Client['call']>[1] = {}): Promise<T> => {
      if (name === 'subscriptions.retry') await ok('POST', `/v1/payment-intents/${failed!.id}/confirm`, { payment_method_id });
      return client.call<T>(name, options);
    };
    const report = await runRetryBatch({ client: paying, batch, concurrency: 1 });
    await batch.journal.close();
    expect(report.results.map((r) => [r.outcome, r.status, r.skip_reason, r.payment_intent_id])).toEqual([['skipped', 'past_due', 'latest_payment_succeeded', null]]);
    expect(report.results[0]!.message).toContain(`its failed payment ${failed!.id} has been paid directly since`);
    expect(await intents(id!)).toHaveLength(1);
  });

  it('never retries a past_due subscription whose first failed intent was paid directly after a later retry declined: the cycle is paid, though the latest intent failed', async () => {
    const [id] = await pastDue(1);
    const [failed] = await intents(id!);
    // A hand retry on another declining card: a newer failed intent.
    await fix(id!, NO_FUNDS);
    expect((await s.call('POST', `/v1/subscriptions/${id}/retry`)).status).toBe(402);
    // The customer then pays the first, failed intent with a good card (the dunning email's link): still past_due.
    const pm = await card((await ok('GET', `/v1/subscriptions/${id}`)).customer_id, GOOD);
    await ok('POST', `/v1/payment-intents/${failed!.id}/confirm`, { payment_method_id: pm });
    // Support updates the card: the batch would now find it changed since the last failure.
    await ok('POST', `/v1/subscriptions/${id}`, { payment_method_id: pm });
    expect(await statusOf(id!)).toBe('past_due');
    const batch = await newBatch(undefined, true);
    const report = await runRetryBatch({ client, batch, concurrency: 1 });
    await batch.journal.close();
    expect(report.results.map((r) => [r.outcome, r.skip_reason, r.idempotency_key])).toEqual([['skipped', 'latest_payment_succeeded', null]]);
    expect(await intents(id!)).toHaveLength(2);
  });

  it('still retries a subscription whose previous cycle was paid normally and whose next one failed', async () => {
    const [id] = await pastDue(1, { number: GOOD });
    expect(await statusOf(id!)).toBe('active');
    const sub = await ok('GET', `/v1/subscriptions/${id}`);
    await ok('POST', `/v1/subscriptions/${id}`, { payment_method_id: await card(sub.customer_id, DECLINED) });
    await ok('POST', '/v1/test-helpers/clock/advance', { to: '2030-02-16' });
    expect(await statusOf(id!)).toBe('past_due');
    await fix(id!);
    const batch = await newBatch();
    const report = await runRetryBatch({ client, batch, concurrency: 1 });
    await batch.journal.close();
    expect(report.results.map((r) => [r.outcome, r.status])).toEqual([['succeeded', 'active']]);
  });

  it('never retries the subscription\'s card after its hard decline, though a later attempt in the run failed on another card (the customer\'s own, or a retry before the card was changed back)', async () => {
    const [direct, back] = await pastDue(2, { number: EXPIRED });
    const cardOf = async (id: string) => (await ok('GET', `/v1/subscriptions/${id}`)) as { customer_id: string; payment_method_id: string };
    // The customer tries to pay the failed intent with another card, declined too.
    const [failed] = await intents(direct!);
    const other = await card((await cardOf(direct!)).customer_id, DECLINED);
    expect((await s.call('POST', `/v1/payment-intents/${failed!.id}/confirm`, { payment_method_id: other })).status).toBe(402);
    // Support retries on another card, declined, then puts the expired card back.
    const expired = (await cardOf(back!)).payment_method_id;
    await fix(back!, DECLINED);
    expect((await s.call('POST', `/v1/subscriptions/${back}/retry`)).status).toBe(402);
    await ok('POST', `/v1/subscriptions/${back}`, { payment_method_id: expired });
    const batch = await newBatch(undefined, true);
    const report = await runRetryBatch({ client, batch, concurrency: 1 });
    await batch.journal.close();
    expect(report.results.map((r) => [r.subscription_id, r.outcome, r.decline_code, r.skip_reason])).toEqual([
      [direct, 'skipped', 'expired_card', 'unchanged_hard_decline'],
      [back, 'skipped', 'expired_card', 'unchanged_hard_decline'],
    ]);
    expect(await intents(direct!)).toHaveLength(1);
    expect(await intents(back!)).toHaveLength(2);
  });

  it('applies the rule at each item\'s turn: a card changed back to the one a hard decline failed on is never retried', async () => {
    const [id] = await pastDue(1, { number: EXPIRED });
    const failedWith = (await ok('GET', `/v1/subscriptions/${id}`)).payment_method_id;
    await fix(id!);
    const batch = await newBatch();
    expect(batch.state.header.items[0]).toMatchObject({ payment_method_changed: true });
    await ok('POST', `/v1/subscriptions/${id}`, { payment_method_id: failedWith });
    const report = await runRetryBatch({ client, batch, concurrency: 1 });
    await batch.journal.close();
    expect(report.results.map((r) => [r.outcome, r.decline_code, r.skip_reason, r.idempotency_key])).toEqual([['skipped', 'expired_card', 'unchanged_hard_decline', null]]);
    expect(await intents(id!)).toHaveLength(1);
  });

  it('retries only what it was started to retry: a subscription skipped at selection whose card changed before its turn is still skipped, never charged beyond what was confirmed', async () => {
    const ids = await pastDue(2, { number: EXPIRED });
    await fix(ids[0]!);
    const batch = await newBatch();
    expect(batch.state.header.items.map((i) => i.payment_method_changed)).toEqual([true, false]);
    // Confirmed: retry ids[0] only. Then ids[1]'s card is changed before its turn.
    await fix(ids[1]!);
    const report = await runRetryBatch({ client, batch, concurrency: 1 });
    await batch.journal.close();
    expect(report.results.map((r) => [r.subscription_id, r.outcome, r.skip_reason])).toEqual([
      [ids[0], 'succeeded', null],
      [ids[1], 'skipped', 'unchanged_hard_decline'],
    ]);
    expect(await intents(ids[1]!)).toHaveLength(1);
  });

  it('two batches at once on one subscription: the second applies the rule to the first one\'s attempt, so a hard decline on the new card is not retried again', async () => {
    const [id] = await pastDue(1);
    await fix(id!, EXPIRED);
    const first = await newBatch();
    const second = await newBatch();
    // The first batch's retry waits at the service's door until the second batch has either
    // read the subscription (the card changed since the last failure: retry it) or is told to wait for the first.
    let sent!: () => void;
    const firstSending = new Promise<void>((resolve) => (sent = resolve));
    let open!: () => void;
    const door = new Promise<void>((resolve) => (open = resolve));
    const held: typeof client = Object.create(client);
    held.call = async <T>(name: Parameters<Client['call']>[0], options: Parameters<Client['call']>[1] = {}): Promise<T> => {
      if (name === 'subscriptions.retry') {
        sent();
        await door;
      }
      return client.call<T>(name, options);
    };
    const watched: typeof client = Object.create(client);
    watched.call = async <T>(name: Parameters<Client['call']>[0], options: Parameters<Client['call']>[1] = {}): Promise<T> => {
      const answer = await client.call<T>(name, options);
      if (name === 'payment_intents.list') open();
      return answer;
    };
    const running = runRetryBatch({ client: held, batch: first, concurrency: 1 });
    await firstSending;
    const waitedFor: number[] = [];
    const report = await runRetryBatch({ client: watched, batch: second, concurrency: 1, onWaiting: (_id, pid) => (waitedFor.push(pid), open()) });
    const firstReport = await running;
    await first.journal.close();
    await second.journal.close();
    expect(firstReport.results.map((r) => [r.outcome, r.decline_code])).toEqual([['failed', 'expired_card']]);
    expect(report.results.map((r) => [r.outcome, r.decline_code, r.skip_reason])).toEqual([['skipped', 'expired_card', 'unchanged_hard_decline']]);
    expect(waitedFor).toEqual([process.pid]);
    // The first decline and the first batch's retry: the expired card was tried once.
    expect(await intents(id!)).toHaveLength(2);
  });

  it('stopped (Ctrl-C) while waiting for another batch\'s claim on an item, is interrupted at once: nothing of it sent, left for the resume', async () => {
    const [id] = await pastDue(1);
    await fix(id!);
    const batch = await newBatch();
    // Another live process (this one, under another name) holds the item's claim for longer than any test runs.
    const release = await acquireLock(join(dir, `${id}.lock`));
    const abort = new AbortController();
    const started = Date.now();
    try {
      const report = await runRetryBatch({ client, batch, concurrency: 1, signal: abort.signal, onWaiting: () => abort.abort() });
      expect(report.error).toBeUndefined();
      expect(report.interrupted).toBe(true);
      expect(report.remaining.map((item) => item.subscription_id)).toEqual([id]);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await batch.journal.close();
      await release();
    }
    expect((await readJournal(batch.journal.path)).keys.has(id!)).toBe(false);
    expect(await intents(id!)).toHaveLength(1);
  }, 15_000);

  it('when aborted, finishes what runs, starts nothing more, and resumes where it stopped', async () => {
    const ids = await pastDue(5);
    for (const id of ids) await fix(id);
    const batch = await newBatch();
    const abort = new AbortController();
    const report = await runRetryBatch({ client, batch, concurrency: 1, signal: abort.signal, onResult: () => abort.abort() });
    expect(report.interrupted).toBe(true);
    expect(report.results).toHaveLength(1);
    expect(report.remaining).toHaveLength(4);
    await batch.journal.close();
    expect(await listBatches(dir, (problem) => expect.fail(problem))).toEqual([expect.objectContaining({ batch_id: report.batch_id, items: 5, done: 1, account: s.account.id })]);

    const reopened = await openBatch(batch.journal.path);
    const again = await runRetryBatch({ client, batch: reopened, concurrency: 2 });
    await reopened.journal.close();
    expect(again.interrupted).toBe(false);
    expect(again.results.map((r) => r.outcome)).toEqual(Array(5).fill('succeeded'));
    for (const id of ids) expect(await intents(id)).toHaveLength(2);
  });

  it('stops on an unreachable service, leaving the item started with its key for the resume', async () => {
    const ids = await pastDue(2);
    for (const id of ids) await fix(id);
    const batch = await newBatch();
    // The service answers what the batch reads, and goes down as the retry is sent.
    const origin = `http://127.0.0.1:${(s.app.server.address() as AddressInfo).port}`;
    const failing = createServer((req, res) => {
      if (req.method !== 'GET') return req.socket.destroy();
      void fetch(`${origin}${req.url}`, { headers: req.headers as Record<string, string> }).then(async (answer) => {
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
      });
    });
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    const down = clientAt(`http://127.0.0.1:${(failing.address() as AddressInfo).port}`);
    const report = await runRetryBatch({ client: down, batch, concurrency: 1 });
    await down.close();
    await new Promise((resolve) => failing.close(resolve));
    expect(report.error).toBeInstanceOf(NetworkError);
    expect(report.results).toEqual([]);
    expect(report.remaining).toHaveLength(2);
    await batch.journal.close();

    const resumed = await openBatch(batch.journal.path);
    const key = resumed.state.keys.get(ids[0]!);
    expect(key).toBeDefined();
    expect(resumed.state.keys.has(ids[1]!)).toBe(false);
    const again = await runRetryBatch({ client, batch: resumed, concurrency: 1 });
    await resumed.journal.close();
    expect(again.results.map((r) => [r.outcome, r.idempotency_key === key])).toEqual([['succeeded', true], ['succeeded', false]]);
  });
});
