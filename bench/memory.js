// Memory (issue 12, row 8): the resident memory (VmRSS) of `pay sandbox start --db FILE`,
// its own process, after BENCH_RSS_INTENTS payment intents created and confirmed
// (default 100,000; autocannon, BENCH_CONNECTIONS at a time, fresh Idempotency-Keys),
// against its RSS at start (once it answered its first requests: a payment method and one
// intent). Needs `npm run build` first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from './support/load.js';
import { createCard, memoryOf, startSandbox } from './support/processes.js';
import { int, mb, report, row } from './support/report.js';

const INTENTS = Number(process.env.BENCH_RSS_INTENTS ?? 100_000);

const dir = mkdtempSync(join(tmpdir(), 'pay-bench-memory-'));
const sandbox = await startSandbox({ name: 'memory', db: join(dir, 'bench.db') });
try {
  const paymentMethod = await createCard(sandbox);
  const create = { amount: 1000, currency: 'usd', payment_method_types: ['card'], payment_method_id: paymentMethod, confirm: true };
  await sandbox.call('POST', '/v1/payment-intents', create);
  const atStart = memoryOf(sandbox.pid).rss;
  const run = await load({ url: `${sandbox.baseUrl}/v1/payment-intents`, pid: sandbox.pid, method: 'POST', headers: sandbox.headers, body: create, freshIdempotencyKey: true }, { amount: INTENTS });
  const { rss: after, peak } = memoryOf(sandbox.pid);

  const ratio = after / atStart;
  process.stdout.write(
    [
      `Memory on Node ${process.version}: sandbox RSS (database file) around ${int(run.ok)} intents created and confirmed in ${run.seconds.toFixed(0)} s`,
      `  at start   ${mb(atStart)}`,
      `  after      ${mb(after)} (peak ${mb(peak)})`,
      '',
    ].join('\n'),
  );
  report([
    row({
      id: 8,
      name: `sandbox RSS after ${int(run.ok)} intents`,
      value: `${mb(after)} (peak ${mb(peak)})`,
      metrics: { rss_bytes: after, peak_rss_bytes: peak, intents: run.ok },
      baseline: `RSS at start: ${mb(atStart)}`,
      baselineMetrics: { rss_bytes: atStart },
      ratio,
      goal: '≤ 1.5×',
      met: INTENTS === 100_000 ? ratio <= 1.5 : null,
      moonshot: '1.2×',
      moonshotMet: INTENTS === 100_000 ? ratio <= 1.2 : null,
    }),
  ]);
} finally {
  await sandbox.stop();
  rmSync(dir, { recursive: true, force: true });
}
