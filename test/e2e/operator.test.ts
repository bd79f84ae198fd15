import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { until } from '../support/wait.js';
import { PAY_BIN, type SandboxHandle, startSandbox } from './harness.js';

// Support staff's past_due tools against a real sandbox: the list, the batch retry (only
// what can succeed), its record (--report), its lock, and its crash safety (kill -9
// mid-batch, then --resume: each subscription charged once), up to 1,000 at once.

const GOOD = '4242424242424242';
const DECLINED = '4000000000000002';
const NO_FUNDS = '4000000000009995';
const EXPIRED = '4000000000000069';
const BAD_CVC = '4000000000000127';
const HALF = '4000000000005555';

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
 * Subscriptions whose first payment, tomorrow, is declined (`declined[i]`, default
 * card_declined; ids in creation order; lists show them newest first); `cards[i]`, when
 * given, then replaces subscription i's card (the support fix before a retry).
 */
async function pastDue(n: number, cards: Array<string | undefined> = [], declined: string[] = []): Promise<string[]> {
  const today = (await ok('GET', '/v1/test-helpers/clock')).now.slice(0, 10);
  const anchor = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const subs: Array<{ id: string; customer_id: string }> = [];
  for (let i = 0; i < n; i++) {
    const customer = (await ok('POST', '/v1/customers', { email: `past-due-${i}@example.com` })).id;
    const pm = await card(customer, declined[i] ?? DECLINED);
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

const intents = async (id: string): Promise<Array<{ id: string; status: string; last_payment_error: { code: string } | null }>> => (await ok('GET', `/v1/payment-intents?subscription_id=${id}&limit=100`)).data;
const statusOf = async (id: string): Promise<string> => (await ok('GET', `/v1/subscriptions/${id}`)).status;

function journalLines(): Array<Record<string, any>> {
  const dir = join(sb.configDir, 'batches');
  const files = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  expect(files).toHaveLength(1);
  return readFileSync(join(dir, files[0]!), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

/** Starts a batch of `pay` (args) and, once stderr matches `when`, calls `then` with the process. */
async function batchUntil(args: string[], when: RegExp, then: (child: ReturnType<typeof execa>, stderr: string) => Promise<void> | void) {
  const child = execa(process.execPath, [PAY_BIN, ...args], { env: sb.env, extendEnv: false, reject: false, stdin: 'ignore' });
  let stderr = '';
  let acted: Promise<void> | undefined;
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (!acted && when.test(stderr)) acted = Promise.resolve(then(child, stderr));
  });
  const result = await child;
  await acted;
  return { exitCode: result.exitCode, signal: result.signal, stderr, stdout: String(result.stdout), pid: child.pid! };
}

/**
 * Runs `pay`, its stdout to a file: a large --json output through a pipe can be cut
 * short at exit (the process exits before an asynchronous pipe drains).
 */
async function payToFile(args: string[]): Promise<{ exitCode: number | null; stdout: string; stderr: string }> {
  const out = join(sb.configDir, `stdout-${Math.random().toString(36).slice(2)}.txt`);
  const fd = openSync(out, 'w');
  try {
    // The file itself is the child's stdout (no pipe in between): its writes are synchronous.
    const child = spawn(process.execPath, [PAY_BIN, ...args], { env: sb.env as NodeJS.ProcessEnv, stdio: ['ignore', fd, 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [exitCode] = (await once(child, 'close')) as [number | null];
    return { exitCode, stdout: readFileSync(out, 'utf8'), stderr };
  } finally {
    closeSync(fd);
  }
}

/** A CSV file as rows of fields (the report quotes nothing here: ids and codes only). */
const csvRows = (path: string) => readFileSync(path, 'utf8').split('\r\n').filter(Boolean).map((line) => line.split(','));

describe('pay subscriptions past-due', () => {
  it('lists past_due subscriptions with the decline, soft or hard, whether the card changed, and what a batch would do', async () => {
    const [fresh] = await pastDue(1, [GOOD]);
    await ok('POST', `/v1/subscriptions/${fresh}/retry`);
    const ids = (await pastDue(3, [GOOD, undefined, undefined], [DECLINED, NO_FUNDS, EXPIRED])).reverse();

    const all = await sb.json(['subscriptions', 'past-due', '--all']);
    expect(all).toMatchObject({ object: 'list', has_more: false });
    expect(all.data.map((p: any) => p.subscription_id)).toEqual(ids);
    const [latest] = await intents(ids[2]!);
    expect(all.data[2]).toEqual({
      subscription_id: ids[2],
      customer_id: expect.stringMatching(/^cus_/),
      payment_method_id: expect.stringMatching(/^pm_/),
      status: 'past_due',
      amount: 1500,
      currency: 'usd',
      past_due_since: '2030-01-17T00:00:00Z',
      payment_intent_id: latest!.id,
      payment_intent_status: 'requires_payment_method',
      paid_directly_intent_id: null,
      decline_code: 'card_declined',
      decline_message: expect.stringContaining('declined'),
      decline_type: 'soft',
      failed_payment_method_id: expect.stringMatching(/^pm_/),
      payment_method_changed: true,
      retry: true,
      skip_reason: null,
    });
    expect(all.data[2].failed_payment_method_id).not.toBe(all.data[2].payment_method_id);
    expect(all.data.map((p: any) => [p.decline_code, p.decline_type, p.payment_method_changed, p.retry, p.skip_reason])).toEqual([
      ['expired_card', 'hard', false, false, 'unchanged_hard_decline'],
      ['insufficient_funds', 'soft', false, false, 'unchanged_soft_decline'],
      ['card_declined', 'soft', true, true, null],
    ]);

    const limited = await sb.json(['subscriptions', 'past-due', '--limit', '2']);
    expect(limited.data).toHaveLength(2);
    expect(limited.has_more).toBe(true);
    const one = await sb.json(['subscriptions', 'past-due', '--customer', all.data[1].customer_id]);
    expect(one.data.map((p: any) => p.subscription_id)).toEqual([ids[1]]);

    const piped = await sb.pay(['subscriptions', 'past-due']);
    expect(piped.exitCode).toBe(0);
    const rows = piped.stdout.trim().split('\n').map((l) => l.split('\t'));
    expect(rows.map((r) => r[0])).toEqual(ids);
    expect(rows.map((r) => r.slice(5))).toEqual([
      ['expired_card', 'hard', 'no', 'skip: unchanged_hard_decline'],
      ['insufficient_funds', 'soft', 'no', 'skip: unchanged_soft_decline'],
      ['card_declined', 'soft', 'yes', 'retry'],
    ]);
    // Piped and cut short by --limit: the rows on stdout, on stderr that there are more.
    const cut = await sb.pay(['subscriptions', 'past-due', '--limit', '2']);
    expect(cut.stdout.trim().split('\n')).toHaveLength(2);
    expect(cut.stderr).toBe('2 past_due shown; there are more: --all lists every one.');
    expect(piped.stderr).toBe('');
    expect((await sb.pay(['subscriptions', 'past-due', '--limit', '2', '--all'])).exitCode).toBe(2);
  });

  it('at a terminal, counts as unpaid only what is unpaid: not a subscription whose failed payment was since paid directly', async () => {
    const [paid, unpaid] = await pastDue(2);
    const [failed] = await intents(paid!);
    const { customer_id } = await ok('GET', `/v1/subscriptions/${paid}`);
    await ok('POST', `/v1/payment-intents/${failed!.id}/confirm`, { payment_method_id: await card(customer_id, GOOD) });
    const shown = await sb.atTTY(['subscriptions', 'past-due'], []);
    expect(shown.exitCode, shown.screen).toBe(0);
    expect(shown.screen).toContain(paid);
    expect(shown.screen).toContain(unpaid);
    expect(shown.screen).toContain('2 past_due: $15.01 unpaid;');
  });
});

describe('pay subscriptions retry-past-due', () => {
  it('retries only what changed since the decline; --include-unchanged adds the soft declines; a re-run charges nothing; the CSV tells each one', async () => {
    // 6 whose card was replaced, 3 unchanged after a soft decline, 3 unchanged after a hard one.
    const firstCards = [DECLINED, NO_FUNDS, EXPIRED, BAD_CVC, DECLINED, NO_FUNDS, DECLINED, NO_FUNDS, DECLINED, EXPIRED, BAD_CVC, EXPIRED];
    const ids = await pastDue(12, Array(6).fill(GOOD), firstCards);
    const updated = ids.slice(0, 6);
    const soft = ids.slice(6, 9);
    const hard = ids.slice(9);
    const counts = async () => Object.fromEntries(await Promise.all(ids.map(async (id) => [id, (await intents(id)).length])));
    const expectIntents = async (n: (id: string) => number) => expect(await counts()).toEqual(Object.fromEntries(ids.map((id) => [id, n(id)])));
    await expectIntents(() => 1);

    const dry = await sb.pay(['subscriptions', 'retry-past-due', '--dry-run']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    const decided = Object.fromEntries(dry.stdout.trim().split('\n').map((l) => l.split('\t')).map((r) => [r[0], r.at(-1)]));
    expect(decided).toEqual(Object.fromEntries([
      ...updated.map((id) => [id, 'retry']),
      ...soft.map((id) => [id, 'skip: unchanged_soft_decline']),
      ...hard.map((id) => [id, 'skip: unchanged_hard_decline']),
    ]));
    expect(dry.stderr).toContain('Dry run: 6 of 12 subscriptions would be retried');
    expect(dry.stderr).toContain('6 skipped (3 unchanged_hard_decline, 3 unchanged_soft_decline)');
    const dryAll = await sb.json(['subscriptions', 'retry-past-due', '--dry-run', '--include-unchanged']);
    expect(dryAll.data.filter((r: any) => r.retry).map((r: any) => r.subscription_id).sort()).toEqual([...updated, ...soft].sort());
    await expectIntents(() => 1);

    // The default batch: exactly the 6 updated, nothing else charged, exit 0.
    const report = join(sb.configDir, 'batch.csv');
    const first = await sb.pay(['subscriptions', 'retry-past-due', '--yes', '--json', '--report', report]);
    expect(first.exitCode, first.stderr).toBe(0);
    const batch = JSON.parse(first.stdout);
    expect(batch).toMatchObject({ object: 'retry_batch', status: 'finished', counts: { succeeded: 6, failed: 0, skipped: 6, remaining: 0 } });
    await expectIntents((id) => (updated.includes(id) ? 2 : 1));
    for (const id of updated) expect(await statusOf(id)).toBe('active');

    // The record: all 12, in the batch's order (newest first), with the right reasons.
    const [head, ...rows] = csvRows(report);
    expect(head).toEqual(['subscription_id', 'customer_id', 'amount', 'currency', 'outcome', 'decline_code', 'payment_intent_id', 'skip_reason', 'amount_received', 'partial']);
    expect(rows.map((r) => r[0])).toEqual([...ids].reverse());
    const byId = new Map(rows.map((r) => [r[0]!, r]));
    for (const [i, id] of ids.entries()) {
      const [latest, before] = await intents(id);
      const row = byId.get(id)!;
      expect(row.slice(1, 4)).toEqual([expect.stringMatching(/^cus_/), String(1500 + i), 'usd']);
      if (updated.includes(id)) expect(row.slice(4)).toEqual(['succeeded', '', latest!.id, '', String(1500 + i), 'no']);
      else expect(row.slice(4)).toEqual(['skipped', latest!.last_payment_error!.code, latest!.id, soft.includes(id) ? 'unchanged_soft_decline' : 'unchanged_hard_decline', '', '']);
      if (!updated.includes(id)) expect(before).toBeUndefined();
    }
    expect(rows.filter((r) => r[7] === 'unchanged_hard_decline').map((r) => r[5]).sort()).toEqual(['expired_card', 'expired_card', 'incorrect_cvc']);

    // --include-unchanged: the 3 soft declines too (they fail again: exit 8), never the hard ones.
    const second = await sb.pay(['subscriptions', 'retry-past-due', '--include-unchanged', '--yes', '--json']);
    expect(second.exitCode, second.stderr).toBe(8);
    expect(JSON.parse(second.stdout).counts).toEqual({ succeeded: 0, partial: 0, failed: 3, skipped: 3, remaining: 0 });
    await expectIntents((id) => (hard.includes(id) ? 1 : 2));

    // A re-run: nothing changed since, so nothing is charged.
    const third = await sb.pay(['subscriptions', 'retry-past-due', '--yes', '--json']);
    expect(third.exitCode, third.stderr).toBe(0);
    expect(JSON.parse(third.stdout).counts).toEqual({ succeeded: 0, partial: 0, failed: 0, skipped: 6, remaining: 0 });
    await expectIntents((id) => (hard.includes(id) ? 1 : 2));

    // Yesterday's batch, reported again from its journal.
    const again = join(sb.configDir, 'again.csv');
    const reported = await sb.pay(['subscriptions', 'retry-past-due', '--resume', batch.id, '--report', again]);
    expect(reported.exitCode, reported.stderr).toBe(0);
    expect(reported.stderr).toContain('already finished');
    expect(readFileSync(again, 'utf8')).toBe(readFileSync(report, 'utf8'));
    await expectIntents((id) => (hard.includes(id) ? 1 : 2));
  });

  it('a failed retry exits 8; each item journaled, its key before its result', async () => {
    const ids = await pastDue(4, [GOOD, undefined, NO_FUNDS, GOOD]);
    const unconfirmed = await sb.pay(['subscriptions', 'retry-past-due']);
    expect(unconfirmed.exitCode).toBe(2);
    expect(unconfirmed.stderr).toContain('--yes');
    expect(() => readdirSync(join(sb.configDir, 'batches'))).toThrow();

    const run = await sb.pay(['subscriptions', 'retry-past-due', '--yes', '--json']);
    expect(run.exitCode, run.stderr).toBe(8);
    const batch = JSON.parse(run.stdout);
    expect(batch).toMatchObject({ object: 'retry_batch', status: 'finished', counts: { succeeded: 2, failed: 1, skipped: 1, remaining: 0 }, remaining: [] });
    const byId = Object.fromEntries(batch.items.map((r: any) => [r.subscription_id, [r.outcome, r.status, r.decline_code, r.skip_reason]]));
    expect(byId).toEqual({
      [ids[0]!]: ['succeeded', 'active', null, null],
      [ids[1]!]: ['skipped', 'past_due', 'card_declined', 'unchanged_soft_decline'],
      [ids[2]!]: ['failed', 'past_due', 'insufficient_funds', null],
      [ids[3]!]: ['succeeded', 'active', null, null],
    });
    expect(run.stderr).toContain('Progress: 4 of 4 done (2 succeeded, 1 failed, 1 skipped).');
    expect(run.stderr).toContain('1 of 4 subscriptions failed');
    expect(await Promise.all(ids.map(statusOf))).toEqual(['active', 'past_due', 'past_due', 'active']);
    expect(await Promise.all(ids.map(async (id) => (await intents(id)).length))).toEqual([2, 1, 2, 2]);

    const lines = journalLines();
    expect(lines[0]).toMatchObject({ type: 'batch', version: 2, batch_id: batch.id, account: sb.account, selection: { include_unchanged: false }, items: expect.any(Array) });
    expect(batch.journal).toBe(join(sb.configDir, 'batches', `${batch.id}.jsonl`));
    for (const item of batch.items.filter((r: any) => r.outcome !== 'skipped')) {
      const started = lines.findIndex((l) => l.type === 'started' && l.subscription_id === item.subscription_id);
      const result = lines.findIndex((l) => l.type === 'result' && l.subscription_id === item.subscription_id);
      expect(started).toBeGreaterThan(0);
      expect(result).toBeGreaterThan(started);
      expect(lines[started]!.idempotency_key).toBe(item.idempotency_key);
    }
    expect(lines.some((l) => l.type === 'started' && l.subscription_id === ids[1])).toBe(false);
    expect(readdirSync(join(sb.configDir, 'batches')).filter((f) => f.endsWith('.lock'))).toEqual([]);
  });

  it('a retry that captured part of the price (partial authorization) shows what was received and the difference to charge: its line, --json, the CSV and the summary', async () => {
    const ids = await pastDue(2, [HALF, GOOD]);
    const report = join(sb.configDir, 'partial.csv');
    const run = await sb.pay(['subscriptions', 'retry-past-due', '--yes', '--json', '--report', report]);
    expect(run.exitCode, run.stderr).toBe(0);
    const batch = JSON.parse(run.stdout);
    expect(batch.counts).toEqual({ succeeded: 2, partial: 1, failed: 0, skipped: 0, remaining: 0 });
    const byId = Object.fromEntries(batch.items.map((r: any) => [r.subscription_id, [r.outcome, r.status, r.amount, r.amount_received, r.partial]]));
    expect(byId).toEqual({ [ids[0]!]: ['succeeded', 'active', 1500, 750, true], [ids[1]!]: ['succeeded', 'active', 1501, 1501, false] });
    expect(batch.items.find((r: any) => r.partial).message).toContain('charge the $7.50 difference in another payment');
    // The subscription is active: the partial payment counts as its payment; the rest is support's to collect.
    expect(await Promise.all(ids.map(statusOf))).toEqual(['active', 'active']);
    const rows = new Map(csvRows(report).map((r) => [r[0]!, r]));
    expect(rows.get('subscription_id')!.slice(-2)).toEqual(['amount_received', 'partial']);
    expect(rows.get(ids[0]!)!.slice(2)).toEqual(['1500', 'usd', 'succeeded', '', (await intents(ids[0]!))[0]!.id, '', '750', 'yes']);
    expect(rows.get(ids[1]!)!.slice(-2)).toEqual(['1501', 'no']);
    expect(run.stderr).toContain('1 partial authorization: $7.50 received of $15.00: charge the $7.50 difference in another payment.');

    // Its line in scripts (TSV): what it received, marked partial.
    const again = await sb.pay(['subscriptions', 'retry-past-due', '--resume', batch.id]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`^${ids[0]}\\t.*\\tsucceeded\\t.*\\t\\$7\\.50 \\(partial\\)$`, 'm'));
    expect(again.stdout).toMatch(new RegExp(`^${ids[1]}\\t.*\\t\\$15\\.01$`, 'm'));
  });

  it('a batch of skipped items only exits 0: what is no longer past_due is left alone; nothing to resume exits 0', async () => {
    const nothing = await sb.pay(['subscriptions', 'retry-past-due', '--resume', '--yes', '--json']);
    expect(nothing.exitCode, nothing.stderr).toBe(0);
    expect(nothing.stderr).toContain('Nothing to resume');
    expect(JSON.parse(nothing.stdout)).toMatchObject({ object: 'retry_batch', id: null });

    const ids = await pastDue(2, [GOOD, GOOD]);
    await ok('POST', `/v1/subscriptions/${ids[0]}/retry`);
    await ok('POST', `/v1/subscriptions/${ids[1]}/cancel`);
    const journal = join(sb.configDir, 'support-batch.jsonl');
    const run = await sb.pay(['subscriptions', 'retry-past-due', '--only', ids.join(','), '--journal', journal, '--yes']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^${ids[0]}\\t.*\\tskipped\\tactive\\t\\tnot_past_due\\t`, 'm'));
    expect(run.stdout).toMatch(new RegExp(`^${ids[1]}\\t.*\\tskipped\\tcanceled\\t`, 'm'));
    expect(await intents(ids[0]!)).toHaveLength(2);
    expect(await intents(ids[1]!)).toHaveLength(1);

    // The journal went where it was told; resuming a finished batch sends nothing.
    expect(readFileSync(journal, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).type)).toEqual(['batch', 'result', 'result']);
    const finished = await sb.pay(['subscriptions', 'retry-past-due', '--resume', '--journal', journal, '--yes', '--json']);
    expect(finished.exitCode, finished.stderr).toBe(0);
    expect(finished.stderr).toContain('already finished');
    expect(JSON.parse(finished.stdout).counts).toEqual({ succeeded: 0, partial: 0, failed: 0, skipped: 2, remaining: 0 });
    expect((await sb.pay(['subscriptions', 'retry-past-due', '--journal', journal, '--only', ids[0]!, '--yes'])).exitCode).toBe(2);

    const none = await sb.pay(['subscriptions', 'retry-past-due', '--yes', '--json']);
    expect(none.exitCode).toBe(0);
    expect(JSON.parse(none.stdout)).toMatchObject({ object: 'retry_batch', id: null, counts: { succeeded: 0, failed: 0, skipped: 0, remaining: 0 } });
    const missing = await sb.pay(['subscriptions', 'retry-past-due', '--yes', '--report', join(sb.configDir, 'no-such-dir', 'r.csv')]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('Invalid --report');
  });

  it('at a TTY shows the batch and asks first: no charges unless confirmed', async () => {
    const ids = await pastDue(3, [GOOD, undefined, NO_FUNDS]);
    const question = 'Retry these 2 subscriptions, charging up to $30.02?';
    const declined = await sb.atTTY(['subscriptions', 'retry-past-due'], [[question, 'n\r']]);
    expect(declined.unanswered).toEqual([]);
    expect(declined.exitCode, declined.screen).toBe(130);
    for (const id of [ids[0]!, ids[2]!]) expect(declined.screen).toContain(id);
    expect(declined.screen).toContain('1 skipped (1 unchanged_soft_decline): not charged.');
    expect(declined.screen).toContain('Nothing was charged');
    for (const id of ids) expect(await intents(id)).toHaveLength(1);

    const confirmed = await sb.atTTY(['subscriptions', 'retry-past-due'], [[question, 'y\r']]);
    expect(confirmed.exitCode, confirmed.screen).toBe(8);
    expect(confirmed.screen).toMatch(/\[#{30}\] 3\/3 {2}1 succeeded, 1 failed, 1 skipped/);
    expect(confirmed.screen).toMatch(/SUBSCRIPTION +CUSTOMER +AMOUNT +RESULT/);
    expect(await Promise.all(ids.map(statusOf))).toEqual(['active', 'past_due', 'past_due']);
  });

  it('Ctrl-C finishes the retry in flight, journals it, exits 130, and the batch resumes', async () => {
    const ids = await pastDue(12, Array(12).fill(GOOD));
    const stopped = await batchUntil(['subscriptions', 'retry-past-due', '--yes', '--concurrency', '1', '--verbose'], /^< 200 POST \/v1\/subscriptions\/sub_\w+\/retry/m, (child) => void child.kill('SIGINT'));
    expect(stopped.exitCode).toBe(130);
    const batchId = /Batch (batch_\w+)/.exec(stopped.stderr)![1]!;
    expect(stopped.stderr).toContain(`--resume ${batchId}`);
    const lines = journalLines();
    const started = lines.filter((l) => l.type === 'started').length;
    const results = lines.filter((l) => l.type === 'result').length;
    expect(results).toBeGreaterThanOrEqual(1);
    expect(results).toBeLessThan(12);
    expect(results, 'every retry sent was finished and journaled').toBe(started);

    const resumed = await sb.pay(['subscriptions', 'retry-past-due', '--resume', batchId, '--yes']);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    for (const id of ids) expect(await intents(id)).toHaveLength(2);
  });

  it('a second Ctrl-C quits at once, as the first one says, even with a retry the service never answers', async () => {
    await pastDue(2, Array(2).fill(GOOD));
    // The service as seen through a proxy that holds every retry and answers nothing else differently.
    const held: ServerResponse[] = [];
    const proxy = createServer((req, res) => {
      if (req.method === 'POST' && /\/retry$/.test(req.url ?? '')) {
        held.push(res);
        req.resume();
        return;
      }
      req.pipe(request(new URL(req.url!, sb.baseUrl), { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      }));
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    let child: ReturnType<typeof execa> | undefined;
    try {
      child = execa(process.execPath, [PAY_BIN, 'subscriptions', 'retry-past-due', '--yes', '--concurrency', '1'], {
        env: { ...sb.env, PAY_BASE_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` },
        extendEnv: false,
        reject: false,
        stdin: 'ignore',
      });
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      await until(() => held.length, (n) => n === 1, 'a retry held by the proxy');
      child.kill('SIGINT');
      await until(() => stderr, (text) => text.includes('Ctrl-C again quits at once'), 'the first Ctrl-C answered');
      // Past the quarter second in which a signal is taken for the echo of the first (src/cli/main.ts).
      await new Promise((resolve) => setTimeout(resolve, 300));
      child.kill('SIGINT');
      const result = await child;
      expect(result.exitCode, stderr).toBe(130);
    } finally {
      child?.kill('SIGKILL');
      for (const res of held) res.destroy();
      proxy.close();
    }
  });
});

describe('retry-past-due at scale', () => {
  /** The account's payment intents, every page. */
  async function allIntents(): Promise<Array<{ id: string; status: string; subscription_id: string | null }>> {
    const all = [];
    let after = '';
    for (;;) {
      const page = await ok('GET', `/v1/payment-intents?limit=100${after ? `&starting_after=${after}` : ''}`);
      all.push(...page.data);
      if (!page.has_more) return all;
      after = page.data.at(-1).id;
    }
  }

  /** Runs `task` over `items`, `limit` at a time. */
  async function limited<T, R>(items: T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
    const out: R[] = new Array(items.length);
    let next = 0;
    await Promise.all(Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await task(items[i]!);
      }
    }));
    return out;
  }

  it('1,000 past_due in one batch: listed page by page, killed (kill -9) midway, locked against a second resume, resumed: each charged once', async () => {
    const N = 1000;
    // One customer with a declining card and a good one: 1,000 subscriptions declined at
    // one clock advance, then each given the good card (the support fix).
    const customer = (await ok('POST', '/v1/customers', { email: 'many@example.com' })).id;
    const declining = await card(customer, DECLINED);
    const good = await card(customer, GOOD);
    const anchor = '2030-01-16';
    const subs: string[] = await limited(Array.from({ length: N }, (_, i) => i), 16, async (i) =>
      (await ok('POST', '/v1/subscriptions', { customer_id: customer, payment_method_id: declining, price: 100 + i, billing_cycle_anchor: anchor, interval_unit: 'month', interval_count: 1 })).id);
    await ok('POST', '/v1/test-helpers/clock/advance', { to: anchor });
    await limited(subs, 16, (id) => ok('POST', `/v1/subscriptions/${id}`, { payment_method_id: good }));

    const list = await payToFile(['subscriptions', 'past-due', '--all', '--json']);
    expect(list.exitCode, list.stderr).toBe(0);
    const listed = JSON.parse(list.stdout);
    expect(listed.data).toHaveLength(N);
    expect(new Set(listed.data.map((p: any) => p.subscription_id))).toEqual(new Set(subs));
    expect(listed.data.every((p: any) => p.retry && p.payment_method_changed && p.decline_code === 'card_declined')).toBe(true);

    // Stopped (SIGSTOP) once 100 are done: a second resume of its batch is refused, naming it.
    let second: Awaited<ReturnType<SandboxHandle['pay']>> | undefined;
    const killed = await batchUntil(['subscriptions', 'retry-past-due', '--yes', '--concurrency', '8'], /^Progress: 100 of 1000 done/m, async (child, stderr) => {
      child.kill('SIGSTOP');
      const batchId = /Batch (batch_\w+)/.exec(stderr)![1]!;
      second = await sb.pay(['subscriptions', 'retry-past-due', '--resume', batchId, '--yes']);
      child.kill('SIGKILL');
    });
    expect(killed.signal).toBe('SIGKILL');
    expect(second!.exitCode, second!.stderr).toBe(5);
    expect(second!.stderr).toContain(`process ${killed.pid}`);
    const atCrash = journalLines();
    const done = atCrash.filter((l) => l.type === 'result').length;
    expect(done).toBeGreaterThanOrEqual(100);
    expect(done, 'the kill should land mid-batch').toBeLessThan(N);

    // The lock of the killed process is stale: the resume takes it over and finishes.
    const resumed = await payToFile(['subscriptions', 'retry-past-due', '--resume', '--yes', '--json']);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`${N - done} of ${N} subscriptions left`);
    expect(resumed.stderr).toContain(`Progress: ${N} of ${N} done (${N} succeeded, 0 failed, 0 skipped).`);
    // One line per 100 in scripts: from the first hundred after the crash on, and the end.
    expect(resumed.stderr.match(/^Progress: /gm)).toHaveLength(Math.floor(N / 100) - Math.floor(done / 100));
    expect(JSON.parse(resumed.stdout).counts).toEqual({ succeeded: N, partial: 0, failed: 0, skipped: 0, remaining: 0 });

    // Each subscription: its declined first payment and exactly one retry that paid.
    const perSubscription = new Map<string, string[]>();
    for (const pi of await allIntents()) perSubscription.set(pi.subscription_id!, [...(perSubscription.get(pi.subscription_id!) ?? []), pi.status]);
    expect(perSubscription.size).toBe(N);
    for (const id of subs) expect(perSubscription.get(id)!.sort()).toEqual(['requires_payment_method', 'succeeded']);
    expect((await ok('GET', '/v1/subscriptions?status=past_due')).data).toEqual([]);

    const nothing = await sb.pay(['subscriptions', 'retry-past-due', '--resume', '--yes']);
    expect(nothing.exitCode).toBe(0);
    expect(nothing.stderr).toContain('Nothing to resume');
  }, 180_000);
});
