// Write path (issue 12, rows 1 and 3). Row 1: create+confirm a card payment intent, each
// request with a fresh Idempotency-Key, driven by autocannon at `pay sandbox start --db
// FILE` in its own process; the baseline is a bare node:http server in its own process
// answering the same response body, under the same load, in the same run. Each side gets
// BENCH_WARMUP seconds of warm-up (default 2), then BENCH_DURATION seconds (default 10)
// in BENCH_ROUNDS slices (default 5) alternating with the other's, BENCH_CONNECTIONS
// connections (default 32). Row 3: the bytes on disk each of those intents added (file +
// WAL after the sandbox's clean close checkpointed it, divided by the intents counted
// through the API), split by table with sqlite's dbstat. Beside row 1, not as its
// baseline: the floor of its stack (bench/support/floor-server.js: fastify, node:sqlite,
// the same durable group commit and rows, nothing else), in the same alternating slices,
// so the row's ratio can be read against what the stack alone reaches on this machine.
// Needs `npm run build` first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compare, cpuRatio, metricsOf, summary, CONNECTIONS } from './support/load.js';
import { countList, createCard, startBare, startFloor, startSandbox } from './support/processes.js';
import { bytesByTable, bytesOnDisk } from './support/storage.js';
import { int, KB, ms, report, row } from './support/report.js';

const dir = mkdtempSync(join(tmpdir(), 'pay-bench-write-'));
const db = join(dir, 'bench.db');
const closing = [];
try {
  // Set-up run: a payment method and one intent, whose answer the bare server will send.
  let sandbox = await startSandbox({ name: 'write', db });
  // Stopped by the finally below should the set-up fail: a sandbox left running would hold the port and the file.
  closing.push(sandbox);
  const paymentMethod = await createCard(sandbox);
  const create = { amount: 1000, currency: 'usd', payment_method_types: ['card'], payment_method_id: paymentMethod, confirm: true };
  const sample = await sandbox.call('POST', '/v1/payment-intents', create, { headers: { 'idempotency-key': 'bench-write-sample' } });
  if (sample.body.status !== 'succeeded') throw new Error(`the sample intent is ${sample.body.status}, not succeeded`);
  const { body: charges } = await sandbox.call('GET', `/v1/charges?payment_intent_id=${sample.body.id}`);
  if (charges.data.length !== 1) throw new Error(`the sample intent has ${charges.data.length} charges, not 1`);
  await sandbox.stop();
  closing.length = 0;
  const bytesBefore = bytesOnDisk(db);
  const tablesBefore = bytesByTable(db);

  // The measured run, on the same file.
  sandbox = await startSandbox({ name: 'write', db });
  closing.push(sandbox);
  const bare = await startBare(sample.text);
  closing.push(bare);
  const floor = await startFloor({ db: join(dir, 'floor.db'), headers: sandbox.headers, intent: sample.text, charge: JSON.stringify(charges.data[0]) });
  closing.push(floor);
  const target = ({ baseUrl: base, pid }) => ({ pid, url: `${base}/v1/payment-intents`, method: 'POST', headers: sandbox.headers, body: create, freshIdempotencyKey: true });
  const {
    baseline,
    pay,
    others: [floorLoad],
  } = await compare(target(bare), target(sandbox), target(floor));
  const intents = (await countList(sandbox, '/v1/payment-intents')) - 1;
  await bare.stop();
  await floor.stop();
  await sandbox.stop();
  closing.length = 0;

  const perIntent = (bytesOnDisk(db) - bytesBefore) / intents;
  const tablesAfter = bytesByTable(db);
  const growth = [...tablesAfter].map(([name, bytes]) => [name, bytes - (tablesBefore.get(name) ?? 0)]).filter(([, bytes]) => bytes > 0);
  const grown = growth.reduce((sum, [, bytes]) => sum + bytes, 0);
  const split = growth
    .sort((a, b) => b[1] - a[1])
    .map(([name, bytes]) => `${name} ${Math.round((100 * bytes) / grown)}%`)
    .join(', ');

  const ratio = pay.rps / baseline.rps;
  const floorRatio = floorLoad.rps / baseline.rps;
  const payToFloor = pay.rps / floorLoad.rps;
  process.stdout.write(
    [
      `Write path on Node ${process.version}: POST /v1/payment-intents (confirm, fresh Idempotency-Key), ${CONNECTIONS} connections, database file`,
      `  pay sandbox      ${summary(pay)}`,
      `  bare node:http   ${summary(baseline)}`,
      `  CPU ratio        ${cpuRatio(baseline, pay).toFixed(2)}× (the bare server's CPU time a request over the sandbox's: steadier than req/s on a busy machine)`,
      `  the stack's floor ${summary(floorLoad)}: ${floorRatio.toFixed(2)}× the bare server, the sandbox ${payToFloor.toFixed(2)}× it (shown, not the row's baseline)`,
      `  on disk          ${int(perIntent)} B per intent over ${int(intents)} intents (${split})`,
      '',
    ].join('\n'),
  );
  report([
    row({
      id: 1,
      name: 'create+confirm a card intent, each with a fresh Idempotency-Key',
      value: `${int(pay.rps)} req/s, p99 ${ms(pay.p99)}`,
      metrics: { ...metricsOf(pay), cpu_ratio: cpuRatio(baseline, pay), floor: { ...metricsOf(floorLoad), ratio: floorRatio, pay_to_floor: payToFloor } },
      baseline: `bare \`node:http\` answering fixed JSON: ${int(baseline.rps)} req/s, p99 ${ms(baseline.p99)}`,
      baselineMetrics: metricsOf(baseline),
      ratio,
      goal: '≥ 0.30×, p99 ≤ 20 ms',
      met: ratio >= 0.3 && pay.p99 <= 20,
      moonshot: '0.5×',
      moonshotMet: ratio >= 0.5,
    }),
    row({
      id: 3,
      name: 'bytes on disk per create+confirm',
      value: `${(perIntent / KB).toFixed(1)} KB (${split})`,
      metrics: { bytes_per_intent: perIntent, intents, by_table_percent: Object.fromEntries(growth.map(([name, bytes]) => [name, (100 * bytes) / grown])) },
      goal: '≤ 2 KB',
      met: perIntent <= 2 * KB,
      moonshot: '1 KB',
      moonshotMet: perIntent <= KB,
    }),
  ]);
} finally {
  for (const child of closing) await child.stop();
  rmSync(dir, { recursive: true, force: true });
}
