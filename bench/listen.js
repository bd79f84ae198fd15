// Listen benchmark (issue 6, acceptance 4): events per second and latency from creation
// in the sandbox to receipt by a local app through `pay webhooks listen`, against a
// baseline measured in the same run: the same event bodies, signed the same way, POSTed
// straight to the same app by this one process, one at a time as listen forwards them.
// Throughput: a burst of events created several requests at a time. Latency: events
// created one at a time, each once the previous one arrived, from the start of the
// request that creates it to its receipt (the baseline's: from the start of its POST to
// the app's answer). Needs `npm run build` first. BENCH_EVENTS (default 1000),
// BENCH_CONCURRENCY (requests creating events at once, default 8) and
// BENCH_LATENCY_EVENTS (default 200) change the sizes.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { signedHeaders } from '../dist/infra/webhook-signing.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const LATENCY_EVENTS = Number(process.env.BENCH_LATENCY_EVENTS ?? 200);
const node = process.execPath;
const payBin = fileURLToPath(new URL('../bin/pay.js', import.meta.url));
const configDir = mkdtempSync(join(tmpdir(), 'pay-bench-listen-'));
const account = 'acct_bench_listen';
const apiKey = 'sk_test_bench_listen_abcdefghijklmnopqrstuvwxyz';
const env = { ...process.env, PAY_CONFIG_DIR: configDir, NO_COLOR: '1', PAY_SANDBOX_ACCOUNT: account, PAY_SANDBOX_API_KEY: apiKey };
for (const key of ['PAY_PROFILE', 'PAY_BASE_URL', 'PAY_ACCOUNT', 'PAY_API_KEY']) delete env[key];

/** Starts `pay …` and resolves with the process and its first stdout line. */
function startPay(args) {
  const child = spawn(node, [payBin, ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const first = new Promise((resolve, reject) => {
    let buffer = '';
    const read = (chunk) => {
      buffer += chunk;
      const newline = buffer.indexOf('\n');
      if (newline === -1) return;
      // The per-event lines after it are only drained, so the child's stdout never blocks.
      child.stdout.off('data', read);
      child.stdout.resume();
      resolve(JSON.parse(buffer.slice(0, newline)));
    };
    child.stdout.on('data', read);
    child.once('exit', (code) => reject(new Error(`pay ${args.join(' ')} exited with code ${code}`)));
  });
  return { child, first };
}

const stopped = (child) => new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));

/** The local app: answers 200; while listen delivers, notes when each customer's event arrived. */
const received = new Map();
const waiting = new Map();
const bodies = [];
let throughListen = true;
const app = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    const at = performance.now();
    const event = JSON.parse(body);
    const customer = event.data.object.id;
    if (throughListen && !received.has(customer)) {
      received.set(customer, at);
      if (bodies.length < EVENTS) bodies.push({ id: event.id, body });
      waiting.get(customer)?.(at);
    }
    res.end();
    if (received.size === EVENTS) allReceived();
  });
});
let allReceived;
const done = new Promise((resolve) => (allReceived = resolve));
await new Promise((resolve) => app.listen(0, '127.0.0.1', resolve));
const appUrl = `http://127.0.0.1:${app.address().port}/webhooks`;

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

const sandbox = startPay(['sandbox', 'start', '--port', '0', '--memory', '--json']);
const listen = { child: undefined };
try {
  const { base_url: baseUrl } = await sandbox.first;
  const started = startPay(['webhooks', 'listen', '--forward-to', appUrl, '--print-secret', '--json']);
  listen.child = started.child;
  const { secret } = await started.first;

  const api = new Agent({ connections: CONCURRENCY });
  const createCustomer = async () => {
    const response = await request(`${baseUrl}/v1/customers`, {
      method: 'POST',
      headers: { 'pay-account': account, 'pay-api-key': apiKey, 'content-type': 'application/json' },
      body: '{}',
      dispatcher: api,
    });
    return (await response.body.json()).id;
  };

  // Throughput through listen: EVENTS customers, CONCURRENCY requests at a time.
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < EVENTS) {
        next++;
        await createCustomer();
      }
    }),
  );
  await done;
  const listenMs = Math.max(...received.values()) - t0;

  // Latency through listen: one event at a time, each created once the previous arrived.
  const listenLatency = [];
  for (let i = 0; i < LATENCY_EVENTS; i++) {
    const at = performance.now();
    let arrived;
    const arrival = new Promise((resolve) => (arrived = resolve));
    const id = await createCustomer();
    waiting.set(id, arrived);
    if (received.has(id)) arrived(received.get(id));
    listenLatency.push((await arrival) - at);
    waiting.delete(id);
  }
  await api.close();

  // Baseline: the same bodies, signed with the same secret, POSTed straight to the app.
  throughListen = false;
  const direct = new Agent({ connections: 1 });
  const directLatency = [];
  const t1 = performance.now();
  for (const { id, body } of bodies) {
    const at = performance.now();
    const response = await request(appUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signedHeaders(secret, id, body) },
      body,
      dispatcher: direct,
    });
    await response.body.dump();
    directLatency.push(performance.now() - at);
  }
  const directMs = performance.now() - t1;
  await direct.close();

  const perSecond = (ms) => (EVENTS / (ms / 1000)).toFixed(0);
  const ms = (value) => `${value.toFixed(2)} ms`;
  process.stdout.write(
    [
      `Listen on Node ${process.version}: ${EVENTS} events created ${CONCURRENCY} requests at a time, then ${LATENCY_EVENTS} one at a time, received by a local app`,
      `  through pay webhooks listen   ${perSecond(listenMs)} events/s · latency p50 ${ms(percentile(listenLatency, 50))} · p99 ${ms(percentile(listenLatency, 99))} (creation to receipt)`,
      `  POSTed straight to the app    ${perSecond(directMs)} events/s · latency p50 ${ms(percentile(directLatency, 50))} · p99 ${ms(percentile(directLatency, 99))} (one process, one at a time)`,
      `  ratio                         ${(directMs / listenMs).toFixed(2)}x the baseline's events/s · ${(percentile(listenLatency, 50) / percentile(directLatency, 50)).toFixed(1)}x its p50 latency`,
    ].join('\n') + '\n',
  );
  // A fast wrong answer is no result: every event arrived, each once in the first pass.
  if (bodies.length !== EVENTS) throw new Error(`expected ${EVENTS} events at the app, got ${bodies.length}`);
} finally {
  for (const child of [listen.child, sandbox.child]) {
    if (!child) continue;
    child.kill('SIGINT');
    await stopped(child);
  }
  app.close();
  rmSync(configDir, { recursive: true, force: true });
}
