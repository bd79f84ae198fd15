// Read path (issue 12, row 2): GET one payment intent, driven by autocannon at `pay
// sandbox start --db FILE` in its own process; the baseline is a bare node:http server in
// its own process answering the same body, under the same load, in the same run. Sizes
// and alternation as in write.js (BENCH_WARMUP, BENCH_DURATION, BENCH_ROUNDS,
// BENCH_CONNECTIONS). Needs `npm run build` first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compare, cpuRatio, metricsOf, summary, CONNECTIONS } from './support/load.js';
import { createCard, startBare, startSandbox } from './support/processes.js';
import { int, ms, report, row } from './support/report.js';

const dir = mkdtempSync(join(tmpdir(), 'pay-bench-read-'));
const closing = [];
try {
  const sandbox = await startSandbox({ name: 'read', db: join(dir, 'bench.db') });
  closing.push(sandbox);
  const paymentMethod = await createCard(sandbox);
  const { body: intent } = await sandbox.call('POST', '/v1/payment-intents', { amount: 1000, currency: 'usd', payment_method_types: ['card'], payment_method_id: paymentMethod, confirm: true });
  const path = `/v1/payment-intents/${intent.id}`;
  const { text } = await sandbox.call('GET', path);
  const bare = await startBare(text);
  closing.push(bare);

  const target = ({ baseUrl: base, pid }) => ({ pid, url: `${base}${path}`, headers: sandbox.headers });
  const { baseline, pay } = await compare(target(bare), target(sandbox));

  const ratio = pay.rps / baseline.rps;
  process.stdout.write(
    [
      `Read path on Node ${process.version}: GET ${path}, ${CONNECTIONS} connections, database file`,
      `  pay sandbox      ${summary(pay)}`,
      `  bare node:http   ${summary(baseline)}`,
      `  CPU ratio        ${cpuRatio(baseline, pay).toFixed(2)}× (the bare server's CPU time a request over the sandbox's: steadier than req/s on a busy machine)`,
      '',
    ].join('\n'),
  );
  report([
    row({
      id: 2,
      name: 'GET one payment intent',
      value: `${int(pay.rps)} req/s, p99 ${ms(pay.p99)}`,
      metrics: { ...metricsOf(pay), cpu_ratio: cpuRatio(baseline, pay) },
      baseline: `bare \`node:http\`: ${int(baseline.rps)} req/s, p99 ${ms(baseline.p99)}`,
      baselineMetrics: metricsOf(baseline),
      ratio,
      goal: '≥ 0.7×',
      met: ratio >= 0.7,
      moonshot: '0.9×',
      moonshotMet: ratio >= 0.9,
    }),
  ]);
} finally {
  for (const child of closing) await child.stop();
  rmSync(dir, { recursive: true, force: true });
}
