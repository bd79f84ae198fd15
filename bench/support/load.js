// The load generator of the sandbox benches: autocannon, in the bench's own process, with
// the same settings for the sandbox and for its bare node:http baseline.
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { cpuSecondsOf } from './processes.js';
import { int, ms } from './report.js';

/** Connections at once, as in the table. */
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
/** Seconds of each measured run, and of the warm-up before it. */
export const DURATION = Number(process.env.BENCH_DURATION ?? 10);
export const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);

/** A fresh Idempotency-Key on every request, as the CLI sends one on every write. */
const freshKey = (request) => {
  request.headers['idempotency-key'] = randomUUID();
  return request;
};

/**
 * Runs autocannon against `url` for `duration` seconds (or until `amount` requests) and
 * returns req/s (autocannon's mean of per-second samples), latency percentiles in ms and
 * the count of 2xx answers. Any error, timeout or non-2xx answer fails the bench: a fast
 * wrong answer is no result. On a shared machine req/s moves with the neighbours' load,
 * so it also returns the CPU time the server process (`pid`) spent per request, and the
 * share of a core the load generator used (near 100%, the generator was the limit).
 */
export async function load({ url, pid, method = 'GET', headers = {}, body, freshIdempotencyKey = false, duration = DURATION, amount, connections = CONNECTIONS }) {
  const serverCpu = cpuSecondsOf(pid);
  const ownCpu = process.cpuUsage();
  const result = await autocannon({
    url,
    connections,
    ...(amount === undefined ? { duration } : { amount }),
    requests: [
      {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        ...(freshIdempotencyKey ? { setupRequest: freshKey } : {}),
      },
    ],
  });
  if (result.errors || result.timeouts || result.non2xx) {
    throw new Error(`${method} ${url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx answers`);
  }
  const { user, system } = process.cpuUsage(ownCpu);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    seconds: result.duration,
    serverCpuUsPerRequest: ((cpuSecondsOf(pid) - serverCpu) * 1e6) / result['2xx'],
    generatorCpuShare: (user + system) / 1e6 / result.duration,
  };
}

/** Runs the same load once for `WARMUP` seconds (JIT, caches, connections), results dropped. */
export const warmUp = (options) => load({ ...options, duration: WARMUP, amount: undefined });

/** One line of a load run's numbers. */
export const summary = (r) =>
  `${int(r.rps)} req/s · p50 ${ms(r.p50)} · p99 ${ms(r.p99)} · server CPU ${int(r.serverCpuUsPerRequest)} µs a request · load generator at ${int(100 * r.generatorCpuShare)}% of a core`;

/** The numbers of a load run kept in results.json. */
export const metricsOf = (r) => ({ rps: r.rps, p50_ms: r.p50, p99_ms: r.p99, requests: r.ok, server_cpu_us_per_request: r.serverCpuUsPerRequest, generator_cpu_share: r.generatorCpuShare, connections: CONNECTIONS });
