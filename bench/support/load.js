// The load generator of the sandbox benches: autocannon, in the bench's own process, with
// the same settings for the sandbox and for its bare node:http baseline.
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { cpuSecondsOf } from './processes.js';
import { int, ms } from './report.js';

/** Connections at once, as in the table. */
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
/** Seconds of load on each side of a comparison, cut into ROUNDS alternating slices. */
export const DURATION = Number(process.env.BENCH_DURATION ?? 10);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** Seconds of warm-up of each side before it is measured. */
export const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);

/** A fresh Idempotency-Key on every request, as the CLI sends one on every write. */
const freshKey = (request) => {
  request.headers['idempotency-key'] = randomUUID();
  return request;
};

/**
 * One autocannon run against `url` for `duration` seconds (or until `amount` requests):
 * its raw result, and the CPU time the server process (`pid`) and this process spent.
 * Any error, timeout or non-2xx answer fails the bench: a fast wrong answer is no result.
 */
async function run({ url, pid, method = 'GET', headers = {}, body, freshIdempotencyKey = false, connections = CONNECTIONS }, { duration, amount }) {
  const serverCpu = cpuSecondsOf(pid);
  const ownCpu = process.cpuUsage();
  const raw = await autocannon({
    url,
    connections,
    ...(amount === undefined ? { duration } : { amount }),
    skipAggregateResult: true,
    requests: [
      {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        ...(freshIdempotencyKey ? { setupRequest: freshKey } : {}),
      },
    ],
  });
  if (raw.errors || raw.timeouts || raw.non2xx) {
    throw new Error(`${method} ${url}: ${raw.errors} errors, ${raw.timeouts} timeouts, ${raw.non2xx} non-2xx answers`);
  }
  const { user, system } = process.cpuUsage(ownCpu);
  return { raw, serverCpu: cpuSecondsOf(pid) - serverCpu, ownCpu: (user + system) / 1e6 };
}

/**
 * The runs of one side as one result: req/s over the time under load, latency percentiles
 * in ms from the merged histograms, 2xx answers, the server's CPU time per request and the
 * share of a core the load generator used (near 100%, the generator was the limit).
 */
function merge(runs, connections = CONNECTIONS) {
  const ok = runs.reduce((sum, r) => sum + r.raw['2xx'], 0);
  const seconds = runs.reduce((sum, r) => sum + r.raw.duration, 0);
  const { latency } = autocannon.aggregateResult(
    runs.map((r) => r.raw),
    { url: 'http://127.0.0.1', connections },
  );
  return {
    rps: ok / seconds,
    p50: latency.p50,
    p99: latency.p99,
    ok,
    seconds,
    connections,
    serverCpuUsPerRequest: (runs.reduce((sum, r) => sum + r.serverCpu, 0) * 1e6) / ok,
    generatorCpuShare: runs.reduce((sum, r) => sum + r.ownCpu, 0) / seconds,
  };
}

/** One load, for `amount` requests or DURATION seconds. */
export async function load(target, { amount } = {}) {
  return merge([await run(target, amount === undefined ? { duration: DURATION } : { amount })], target.connections);
}

/**
 * The baseline and pay (and any `others` shown beside them) under the same load: each
 * warmed up, then DURATION seconds each in ROUNDS alternating slices, so the neighbours'
 * load on a shared machine falls on all alike.
 */
export async function compare(baseline, pay, ...others) {
  const targets = [baseline, pay, ...others];
  for (const target of targets) await run(target, { duration: WARMUP });
  const runs = targets.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [side, target] of targets.entries()) runs[side].push(await run(target, { duration: DURATION / ROUNDS }));
  }
  const [baselineResult, payResult, ...othersResults] = runs.map((sideRuns, side) => merge(sideRuns, targets[side].connections));
  return { baseline: baselineResult, pay: payResult, others: othersResults };
}

/** The baseline's server CPU time per request over pay's: 1 is as cheap as the baseline. */
export const cpuRatio = (baseline, pay) => baseline.serverCpuUsPerRequest / pay.serverCpuUsPerRequest;

/** One line of a load's numbers. */
export const summary = (r) =>
  `${int(r.rps)} req/s · p50 ${ms(r.p50)} · p99 ${ms(r.p99)} · server CPU ${int(r.serverCpuUsPerRequest)} µs a request · load generator at ${int(100 * r.generatorCpuShare)}% of a core`;

/** The numbers of a load kept in results.json. */
export const metricsOf = (r) => ({
  rps: r.rps,
  p50_ms: r.p50,
  p99_ms: r.p99,
  requests: r.ok,
  seconds: r.seconds,
  connections: r.connections,
  server_cpu_us_per_request: r.serverCpuUsPerRequest,
  generator_cpu_share: r.generatorCpuShare,
});
