import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PAY_BIN, type SandboxHandle, startSandbox } from './harness.js';

// Support staff's past_due tools against a real sandbox: the list, the batch retry, and
// its crash safety (kill -9 mid-batch, then --resume: each subscription charged once).

const GOOD = '4242424242424242';
const DECLINED = '4000000000000002';
const NO_FUNDS = '4000000000009995';

let sb: SandboxHandle;
beforeEach(async () => {
  sb = await startSandbox({ clock: '2030-01-15' });
});
afterEach(async () => sb?.stop());

async function ok(method: string, path: string, body?: unknown) {
  const res = await sb.http(method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}

async function card(customer: string, number: string): Promise<string> {
  const pm = await ok('POST', '/v1/payment-methods', { type: 'card', card: { number, exp_month: 12, exp_year: 2040, cvc: '123' } });
  await ok('PUT', `/v1/payment-methods/${pm.id}/attach`, { customer_id: customer });
  return pm.id;
}

/**
 * Subscriptions whose first payment, tomorrow, is declined (ids in creation order; lists
 * show them newest first); `cards[i]`, when given, then replaces subscription i's card
 * (the support fix before a retry).
 */
async function pastDue(n: number, cards: Array<string | undefined> = []): Promise<string[]> {
  const today = (await ok('GET', '/v1/test-helpers/clock')).now.slice(0, 10);
  const anchor = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const subs: Array<{ id: string; customer_id: string }> = [];
  for (let i = 0; i < n; i++) {
    const customer = (await ok('POST', '/v1/customers', { email: `past-due-${i}@example.com` })).id;
    const pm = await card(customer, DECLINED);
    subs.push(await ok('POST', '/v1/subscriptions', { customer_id: customer, payment_method_id: pm, price: 1500 + i, billing_cycle_anchor: anchor, interval_unit: 'month', interval_count: 1 }));
  }
  await ok('POST', '/v1/test-helpers/clock/advance', { days: 1 });
  for (const [i, sub] of subs.entries()) {
    expect(sub.id && (await ok('GET', `/v1/subscriptions/${sub.id}`)).status).toBe('past_due');
    const number = cards[i];
    if (number) await ok('POST', `/v1/subscriptions/${sub.id}`, { payment_method_id: await card(sub.customer_id, number) });
  }
  return subs.map((s) => s.id);
}

const intents = async (id: string): Promise<Array<{ id: string; status: string }>> => (await ok('GET', `/v1/payment-intents?subscription_id=${id}&limit=100`)).data;
const statusOf = async (id: string): Promise<string> => (await ok('GET', `/v1/subscriptions/${id}`)).status;

function journalLines(): Array<Record<string, any>> {
  const dir = join(sb.configDir, 'batches');
  const files = readdirSync(dir);
  expect(files).toHaveLength(1);
  return readFileSync(join(dir, files[0]!), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

/** Starts a batch of `pay` and stops it (signal) once its first item has succeeded. */
async function cutShort(args: string[], signal: 'SIGKILL' | 'SIGINT') {
  const child = execa(process.execPath, [PAY_BIN, ...args], { env: sb.env, extendEnv: false, reject: false, stdin: 'ignore' });
  let stderr = '';
  let sent = false;
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (!sent && /^✓ sub_/m.test(stderr)) {
      sent = true;
      child.kill(signal);
    }
  });
  const result = await child;
  return { exitCode: result.exitCode, signal: result.signal, stderr, stdout: String(result.stdout) };
}

describe('pay subscriptions past-due', () => {
  it('lists past_due subscriptions with why their last payment failed and since when', async () => {
    const [fresh] = await pastDue(1, [GOOD]);
    await ok('POST', `/v1/subscriptions/${fresh}/retry`);
    const ids = (await pastDue(3)).reverse();

    const all = await sb.json(['subscriptions', 'past-due', '--all']);
    expect(all).toMatchObject({ object: 'list', has_more: false });
    expect(all.data.map((p: any) => p.subscription_id)).toEqual(ids);
    const [latest] = await intents(ids[0]!);
    expect(all.data[0]).toEqual({
      subscription_id: ids[0],
      customer_id: expect.stringMatching(/^cus_/),
      payment_method_id: expect.stringMatching(/^pm_/),
      status: 'past_due',
      amount: 1502,
      currency: 'usd',
      past_due_since: '2030-01-17T00:00:00Z',
      payment_intent_id: latest!.id,
      failure_code: 'card_declined',
      failure_message: expect.stringContaining('declined'),
    });

    const limited = await sb.json(['subscriptions', 'past-due', '--limit', '2']);
    expect(limited.data).toHaveLength(2);
    expect(limited.has_more).toBe(true);
    const one = await sb.json(['subscriptions', 'past-due', '--customer', all.data[1].customer_id]);
    expect(one.data.map((p: any) => p.subscription_id)).toEqual([ids[1]]);

    const piped = await sb.pay(['subscriptions', 'past-due']);
    expect(piped.exitCode).toBe(0);
    expect(piped.stdout.trim().split('\n').map((l) => l.split('\t')[0])).toEqual(ids);
    expect(piped.stdout).toContain('\tcard_declined');
    expect((await sb.pay(['subscriptions', 'past-due', '--limit', '2', '--all'])).exitCode).toBe(2);
  });
});

describe('pay subscriptions retry-past-due', () => {
  it('retries the batch once: fixed cards pay, the rest stay past_due (exit 8), each item journaled', async () => {
    const ids = await pastDue(4, [GOOD, undefined, NO_FUNDS, GOOD]);
    const before = await Promise.all(ids.map(async (id) => (await intents(id)).length));
    expect(before).toEqual([1, 1, 1, 1]);

    const unconfirmed = await sb.pay(['subscriptions', 'retry-past-due']);
    expect(unconfirmed.exitCode).toBe(2);
    expect(unconfirmed.stderr).toContain('--yes');
    const dry = await sb.pay(['subscriptions', 'retry-past-due', '--dry-run']);
    expect(dry.exitCode).toBe(0);
    expect(dry.stdout.trim().split('\n')).toHaveLength(4);
    expect(dry.stderr).toContain('Nothing was charged');
    for (const id of ids) expect(await intents(id)).toHaveLength(1);
    expect(() => readdirSync(join(sb.configDir, 'batches'))).toThrow();

    const run = await sb.pay(['subscriptions', 'retry-past-due', '--yes', '--json']);
    expect(run.exitCode, run.stderr).toBe(8);
    const batch = JSON.parse(run.stdout);
    expect(batch).toMatchObject({ object: 'retry_batch', status: 'finished', counts: { succeeded: 2, failed: 2, skipped: 0, remaining: 0 }, remaining: [] });
    const byId = Object.fromEntries(batch.items.map((r: any) => [r.subscription_id, [r.outcome, r.status, r.reason]]));
    expect(byId).toEqual({
      [ids[0]!]: ['succeeded', 'active', null],
      [ids[1]!]: ['failed', 'past_due', 'card_declined'],
      [ids[2]!]: ['failed', 'past_due', 'insufficient_funds'],
      [ids[3]!]: ['succeeded', 'active', null],
    });
    expect(run.stderr).toMatch(new RegExp(`^✓ ${ids[0]} active`, 'm'));
    expect(run.stderr).toMatch(new RegExp(`^✗ ${ids[2]} past_due: insufficient_funds`, 'm'));
    expect(run.stderr).toContain('2 of 4 subscriptions failed');
    expect(await Promise.all(ids.map(statusOf))).toEqual(['active', 'past_due', 'past_due', 'active']);
    for (const id of ids) expect(await intents(id)).toHaveLength(2);

    const lines = journalLines();
    expect(lines[0]).toMatchObject({ type: 'batch', batch_id: batch.id, account: sb.account, items: expect.any(Array) });
    expect(batch.journal).toBe(join(sb.configDir, 'batches', `${batch.id}.jsonl`));
    for (const item of batch.items) {
      const started = lines.findIndex((l) => l.type === 'started' && l.subscription_id === item.subscription_id);
      const result = lines.findIndex((l) => l.type === 'result' && l.subscription_id === item.subscription_id);
      expect(started).toBeGreaterThan(0);
      expect(result).toBeGreaterThan(started);
      expect(lines[started]!.idempotency_key).toBe(item.idempotency_key);
    }
  });

  it('a batch of skipped items only exits 0: what is no longer past_due is left alone', async () => {
    const ids = await pastDue(2, [GOOD, GOOD]);
    await ok('POST', `/v1/subscriptions/${ids[0]}/retry`);
    await ok('POST', `/v1/subscriptions/${ids[1]}/cancel`);
    const journal = join(sb.configDir, 'support-batch.jsonl');
    const run = await sb.pay(['subscriptions', 'retry-past-due', '--only', ids.join(','), '--journal', journal, '--yes']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain(`- ${ids[0]} skipped: status active`);
    expect(run.stderr).toContain(`- ${ids[1]} skipped: status canceled`);
    expect(run.stdout).toMatch(new RegExp(`^${ids[1]}\\t.*\\tskipped\\tcanceled`, 'm'));
    expect(await intents(ids[0]!)).toHaveLength(2);
    expect(await intents(ids[1]!)).toHaveLength(1);

    // The journal went where it was told; resuming a finished batch sends nothing.
    expect(readFileSync(journal, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).type)).toEqual(['batch', 'started', 'started', 'result', 'result']);
    const finished = await sb.pay(['subscriptions', 'retry-past-due', '--resume', '--journal', journal, '--yes', '--json']);
    expect(finished.exitCode, finished.stderr).toBe(0);
    expect(finished.stderr).toContain('already finished');
    expect(JSON.parse(finished.stdout).counts).toEqual({ succeeded: 0, failed: 0, skipped: 2, remaining: 0 });
    expect((await sb.pay(['subscriptions', 'retry-past-due', '--journal', journal, '--only', ids[0]!, '--yes'])).exitCode).toBe(2);

    const nothing = await sb.pay(['subscriptions', 'retry-past-due', '--yes', '--json']);
    expect(nothing.exitCode).toBe(0);
    expect(JSON.parse(nothing.stdout)).toMatchObject({ object: 'retry_batch', id: null, counts: { succeeded: 0, failed: 0, skipped: 0, remaining: 0 } });
  });

  it('at a TTY shows the batch and asks first: no charges unless confirmed', async () => {
    const ids = await pastDue(2, [GOOD, undefined]);
    const question = 'Retry these 2 subscriptions, charging up to 3001 usd?';
    const declined = await sb.atTTY(['subscriptions', 'retry-past-due'], [[question, 'n\r']]);
    expect(declined.unanswered).toEqual([]);
    expect(declined.exitCode, declined.screen).toBe(130);
    for (const id of ids) expect(declined.screen).toContain(id);
    expect(declined.screen).toContain('card_declined');
    expect(declined.screen).toContain('Nothing was charged');
    for (const id of ids) expect(await intents(id)).toHaveLength(1);

    const confirmed = await sb.atTTY(['subscriptions', 'retry-past-due'], [[question, 'y\r']]);
    expect(confirmed.exitCode, confirmed.screen).toBe(8);
    expect(confirmed.screen).toMatch(/SUBSCRIPTION +CUSTOMER +AMOUNT +RESULT/);
    expect(await Promise.all(ids.map(statusOf))).toEqual(['active', 'past_due']);
  });

  it('killed mid-batch (kill -9), then --resume: every subscription is retried exactly once', async () => {
    const ids = await pastDue(12, Array(12).fill(GOOD));
    const killed = await cutShort(['subscriptions', 'retry-past-due', '--yes', '--concurrency', '1'], 'SIGKILL');
    expect(killed.signal).toBe('SIGKILL');
    const atCrash = journalLines();
    const done = atCrash.filter((l) => l.type === 'result').length;
    expect(done).toBeGreaterThanOrEqual(1);
    expect(done, 'the kill should land mid-batch').toBeLessThan(12);

    const resumed = await sb.pay(['subscriptions', 'retry-past-due', '--resume', '--yes', '--json']);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`${12 - done} of 12 subscriptions left`);
    const batch = JSON.parse(resumed.stdout);
    expect(batch.counts).toEqual({ succeeded: 12, failed: 0, skipped: 0, remaining: 0 });
    // One declined first payment and one retry each: nothing charged twice.
    for (const id of ids) {
      expect((await intents(id)).map((pi) => pi.status)).toEqual(['succeeded', 'requires_payment_method']);
      expect(await statusOf(id)).toBe('active');
    }
    // Items started before the crash were sent again with their original keys.
    const keys = new Map(atCrash.filter((l) => l.type === 'started').map((l) => [l.subscription_id, l.idempotency_key]));
    for (const item of batch.items) if (keys.has(item.subscription_id)) expect(item.idempotency_key).toBe(keys.get(item.subscription_id));
    const after = journalLines();
    expect(after.filter((l) => l.type === 'result')).toHaveLength(12);
    expect(new Set(after.filter((l) => l.type === 'started').map((l) => l.subscription_id)).size).toBe(12);

    const again = await sb.pay(['subscriptions', 'retry-past-due', '--resume', '--yes']);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain('No unfinished batch');
  });

  it('Ctrl-C finishes the retry in flight, journals it, exits 130, and the batch resumes', async () => {
    const ids = await pastDue(12, Array(12).fill(GOOD));
    const stopped = await cutShort(['subscriptions', 'retry-past-due', '--yes', '--concurrency', '1'], 'SIGINT');
    expect(stopped.exitCode).toBe(130);
    const batchId = /Batch (batch_\w+)/.exec(stopped.stderr)![1]!;
    expect(stopped.stderr).toContain(`--resume ${batchId}`);
    const lines = journalLines();
    const started = lines.filter((l) => l.type === 'started').length;
    const results = lines.filter((l) => l.type === 'result').length;
    expect(results).toBeLessThan(12);
    expect(results, 'every retry sent was finished and journaled').toBe(started);
    expect((stopped.stderr.match(/^✓ /gm) ?? []).length).toBe(results);

    const resumed = await sb.pay(['subscriptions', 'retry-past-due', '--resume', batchId, '--yes']);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    for (const id of ids) expect(await intents(id)).toHaveLength(2);
  });
});
