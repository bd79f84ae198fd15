// Billing (issue 12, row 7; issue 5, acceptance 4): one test-clock advance over
// BENCH_BILLING_YEARS (default 10) of weekly billing of BENCH_BILLING_SUBS subscriptions
// (default 1,000: about 520,000 payments), sent as one request to `pay sandbox start --db
// FILE` in its own process: the advance's wall time and the sandbox process's peak RSS
// (VmHWM). Beside it, the sandbox's CPU time per generated payment against its CPU time
// per plain payment intent create+confirm request (autocannon, one connection, fresh
// Idempotency-Keys, BENCH_BASELINE_RUNS requests, default 2,000) in the same sandbox and
// run. Every subscription's payments are then counted through the API: each due date
// charged exactly once, or the run fails. At the default size this takes minutes; run it
// small while developing. Needs `npm run build` first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from './support/load.js';
import { bytesOnDisk } from './support/storage.js';
import { countList, cpuSecondsOf, createCard, memoryOf, startSandbox } from './support/processes.js';
import { GB, int, mb, report, row } from './support/report.js';

const SUBSCRIPTIONS = Number(process.env.BENCH_BILLING_SUBS ?? 1000);
const YEARS = Number(process.env.BENCH_BILLING_YEARS ?? 10);
const BASELINE_RUNS = Number(process.env.BENCH_BASELINE_RUNS ?? 2000);
const START = '2030-01-01';
const END = `${2030 + YEARS}-01-01`;
const DAY_MS = 86_400_000;
const addDays = (date, days) => new Date(Date.parse(date) + days * DAY_MS).toISOString().slice(0, 10);
/** Weekly payments from `anchor` due at or before END (00:00:00Z), where the advance stops. */
const weeklyDue = (anchor) => Math.floor((Date.parse(END) - Date.parse(anchor)) / (7 * DAY_MS)) + 1;

/** Runs `task(i)` for i in [0, count), `width` at a time. */
async function inParallel(count, width, task) {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < count) await task(next++);
  }));
}

const dir = mkdtempSync(join(tmpdir(), 'pay-bench-billing-'));
const db = join(dir, 'bench.db');
const sandbox = await startSandbox({ name: 'billing', db, clock: `${START}T00:00:00Z` });
try {
  const paymentMethod = await createCard(sandbox);
  const plain = await load({
    url: `${sandbox.baseUrl}/v1/payment-intents`,
    pid: sandbox.pid,
    method: 'POST',
    headers: sandbox.headers,
    body: { amount: 1000, currency: 'usd', payment_method_types: ['card'], payment_method_id: paymentMethod, confirm: true },
    freshIdempotencyKey: true,
    connections: 1,
  }, { amount: BASELINE_RUNS });

  const subscriptions = [];
  await inParallel(SUBSCRIPTIONS, 8, async (i) => {
    const { body: customer } = await sandbox.call('POST', '/v1/customers', {});
    const pm = await createCard(sandbox);
    await sandbox.call('PUT', `/v1/payment-methods/${pm}/attach`, { customer_id: customer.id });
    // Anchors spread over the first week: seven billing days a week, as real sign-ups are.
    const anchor = addDays(START, i % 7);
    const { body } = await sandbox.call('POST', '/v1/subscriptions', { customer_id: customer.id, payment_method_id: pm, price: 1000 + i, billing_cycle_anchor: anchor, interval_unit: 'week', interval_count: 1 });
    subscriptions.push({ id: body.id, anchor });
  });

  const rssBefore = memoryOf(sandbox.pid).rss;
  const cpuBefore = cpuSecondsOf(sandbox.pid);
  const started = performance.now();
  await sandbox.call('POST', '/v1/test-helpers/clock/advance', { to: END }, { timeoutMs: 0 });
  const advanceMs = performance.now() - started;
  const advanceCpu = cpuSecondsOf(sandbox.pid) - cpuBefore;
  const { peak } = memoryOf(sandbox.pid);

  // A fast wrong answer is no result: every due date up to END is charged exactly once.
  const expected = subscriptions.reduce((sum, s) => sum + weeklyDue(s.anchor), 0);
  let payments = 0;
  await inParallel(subscriptions.length, 4, async (i) => {
    const count = await countList(sandbox, '/v1/payment-intents', { subscription_id: subscriptions[i].id });
    payments += count;
  });
  if (payments !== expected) throw new Error(`expected ${expected} generated payments, got ${payments}`);
  await sandbox.stop();
  const onDisk = bytesOnDisk(db);

  const cpuPerPaymentUs = (advanceCpu * 1e6) / payments;
  process.stdout.write(
    [
      `Billing on Node ${process.version}: one clock advance ${START} → ${END} over ${int(SUBSCRIPTIONS)} weekly subscriptions (database file)`,
      `  generated payments      ${int(payments)} in ${(advanceMs / 1000).toFixed(1)} s (${int((advanceMs * 1000) / payments)} µs each)`,
      `  sandbox memory          peak RSS ${mb(peak)} (${mb(rssBefore)} before the advance); database ${mb(onDisk)}`,
      `  sandbox CPU             ${int(cpuPerPaymentUs)} µs a generated payment · ${int(plain.serverCpuUsPerRequest)} µs a plain create+confirm request · ratio ${(cpuPerPaymentUs / plain.serverCpuUsPerRequest).toFixed(2)}×`,
      '',
    ].join('\n'),
  );
  const issueSize = SUBSCRIPTIONS === 1000 && YEARS === 10;
  const seconds = advanceMs / 1000;
  report([
    row({
      id: 7,
      name: `clock advance, ${YEARS} year${YEARS === 1 ? '' : 's'} weekly of ${int(SUBSCRIPTIONS)} subscriptions (${int(payments)} payments)`,
      value: `${seconds.toFixed(seconds < 10 ? 1 : 0)} s, peak RSS ${mb(peak)}`,
      metrics: {
        seconds,
        peak_rss_bytes: peak,
        rss_before_bytes: rssBefore,
        payments,
        database_bytes: onDisk,
        cpu_us_per_payment: cpuPerPaymentUs,
        cpu_us_per_plain_request: plain.serverCpuUsPerRequest,
      },
      goal: '≤ 3 min, ≤ 1.5 GB',
      met: issueSize ? seconds <= 180 && peak <= 1.5 * GB : null,
      moonshot: '≤ 1 min',
      moonshotMet: issueSize ? seconds <= 60 && peak <= 1.5 * GB : null,
    }),
  ]);
} finally {
  await sandbox.stop();
  rmSync(dir, { recursive: true, force: true });
}
