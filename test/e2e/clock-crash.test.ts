import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addDays, dueDates, dueInstant, firstIndexOnOrAfter, type IntervalUnit } from '../../src/domain/schedule.js';
import { type SandboxHandle, startSandbox } from './harness.js';

// Issue 5, acceptance 3: a sandbox SIGKILLed in the middle of a long clock advance,
// restarted on the same database and advanced again, has charged every due payment
// exactly once: the clock moves only in the transaction of the work it covers.

const START = '2030-01-01';
const TARGET = '2032-01-01';
const SUBSCRIPTIONS = 60;
const CYCLES: Array<[IntervalUnit, number]> = [['week', 1], ['month', 1], ['week', 2]];

let dir: string;
let dbFile: string;
let sb: SandboxHandle;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pay-crash-'));
  dbFile = join(dir, 'sandbox.db');
  sb = await startSandbox({ db: dbFile, clock: START });
});
afterAll(async () => {
  await sb?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function ok(method: string, path: string, body?: unknown) {
  const res = await sb.http(method, path, body);
  if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Reads the database beside the running sandbox (WAL lets a reader in while it writes). */
function peek<T>(sql: string): T {
  const db = new DatabaseSync(dbFile, { readOnly: true });
  try {
    return db.prepare(sql).get() as T;
  } finally {
    db.close();
  }
}
const clockNow = () => peek<{ clock_now: string }>('SELECT clock_now FROM accounts').clock_now;
const generated = () => peek<{ n: number }>(`SELECT count(*) AS n FROM objects WHERE kind = 'payment_intent'`).n;

it('charges no due payment twice and misses none across a SIGKILL mid-advance', async () => {
  const subs: Array<{ id: string; anchor: string; unit: IntervalUnit; count: number }> = [];
  for (let i = 0; i < SUBSCRIPTIONS; i++) {
    const [unit, count] = CYCLES[i % CYCLES.length]!;
    const customer = (await ok('POST', '/v1/customers', {})).id;
    const pm = (await ok('POST', '/v1/payment-methods', { type: 'card', card: { number: '4242424242424242', exp_month: 12, exp_year: 2045, cvc: '123' } })).id;
    await ok('PUT', `/v1/payment-methods/${pm}/attach`, { customer_id: customer });
    // Anchors over a month, month ends among them, so clamped dates are in play.
    const anchor = addDays('2030-01-04', (i * 3) % 28);
    const sub = await ok('POST', '/v1/subscriptions', { customer_id: customer, payment_method_id: pm, price: 1000 + i, billing_cycle_anchor: anchor, interval_unit: unit, interval_count: count });
    subs.push({ id: sub.id, anchor, unit, count });
  }
  const expected = new Map(subs.map((s) => [s.id, dueDates(s.anchor, s.unit, s.count, firstIndexOnOrAfter(s.anchor, s.unit, s.count, addDays(TARGET, 1))).map(dueInstant)]));
  const total = [...expected.values()].reduce((n, dates) => n + dates.length, 0);

  // The long advance, not awaited: the sandbox is killed while it works.
  const long = sb.http('POST', '/v1/test-helpers/clock/advance', { to: TARGET }).catch(() => undefined);
  const deadline = Date.now() + 30_000;
  while (Date.parse(clockNow()) < Date.parse('2030-06-01') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  await sb.kill();
  await long;

  const killedAt = clockNow();
  const before = generated();
  expect(Date.parse(killedAt)).toBeGreaterThan(Date.parse(`${START}T00:00:00Z`));
  expect(Date.parse(killedAt)).toBeLessThan(Date.parse(`${TARGET}T00:00:00Z`));
  expect(before).toBeGreaterThan(0);
  expect(before).toBeLessThan(total);

  await sb.restart();
  expect((await ok('GET', '/v1/test-helpers/clock')).now).toBe(killedAt);
  expect(await ok('POST', '/v1/test-helpers/clock/advance', { to: TARGET })).toEqual({ object: 'test_clock', now: `${TARGET}T00:00:00Z` });

  for (const sub of subs) {
    const created: string[] = [];
    let page: { data: Array<{ id: string; created: string; status: string }>; has_more: boolean } | undefined;
    do {
      const after: string = page ? `&starting_after=${page.data.at(-1)!.id}` : '';
      page = await ok('GET', `/v1/payment-intents?subscription_id=${sub.id}&limit=100${after}`);
      created.push(...page!.data.map((pi) => pi.created));
    } while (page!.has_more);
    expect(created.reverse(), `${sub.id} ${sub.unit} ×${sub.count} from ${sub.anchor}`).toEqual(expected.get(sub.id));
  }
  expect(generated()).toBe(total);
}, 120_000);

// A CLI that lost its connection mid-advance (the sandbox killed) starts the sandbox again
// and retries with the same Idempotency-Key: the advance it asked for is `days` from the
// clock it was sent at, not from wherever the killed one stopped. Runs on after the test
// above, over its subscriptions, with the clock at TARGET.
it('resumes a killed advance by days to the target of its first attempt when retried with its key', async () => {
  expect(clockNow()).toBe(`${TARGET}T00:00:00Z`);
  const key = { 'idempotency-key': 'advance-two-years' };
  const body = { days: 730 };
  const target = `${addDays(TARGET, 730)}T00:00:00Z`;
  const long = sb.http('POST', '/v1/test-helpers/clock/advance', body, key).catch(() => undefined);
  const deadline = Date.now() + 30_000;
  while (Date.parse(clockNow()) < Date.parse('2032-06-01') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  await sb.kill();
  await long;
  expect(Date.parse(clockNow())).toBeLessThan(Date.parse(target));

  await sb.restart();
  const retried = await sb.http('POST', '/v1/test-helpers/clock/advance', body, key);
  expect(retried.status).toBe(200);
  expect(retried.body).toEqual({ object: 'test_clock', now: target });
  // And it is now an advance done: the same request again is its replay, moving nothing.
  const replayed = await sb.http('POST', '/v1/test-helpers/clock/advance', body, key);
  expect(replayed.body).toEqual({ object: 'test_clock', now: target });
  expect(replayed.headers.get('idempotent-replayed')).toBe('true');
}, 120_000);
