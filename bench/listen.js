// Listen (issue 12, row 4): events per second and latency through `pay webhooks listen`
// (its own process) from the sandbox (`pay sandbox start --db FILE`, its own process) to a
// local app, against a baseline measured in the same run: the same event bodies, signed
// the same way (Standard Webhooks, the listener's secret), POSTed straight to the same app
// by this process.
// Throughput isolates listen: BENCH_LISTEN_WARMUP + BENCH_EVENTS customers (defaults 2000
// and 20,000: each side is timed for a second or two, so one stall of the machine no
// longer decides the row, as it could over 6,000) are created first, BENCH_CONCURRENCY
// requests at a time (default 8), with no listen running (creating events is the
// sandbox's write path, row 1's business, and runs far slower than either side here);
// then `pay webhooks listen --from <the first one's event>` delivers that backlog. The
// first BENCH_LISTEN_WARMUP events warm each side up, as the other benches warm theirs (a
// fresh process runs its first thousand events unoptimised); the BENCH_EVENTS after them
// are timed. Both sides are timed the same way, by the app, from the first timed event it
// received to the last, so (N - 1) / that span, in BENCH_ROUNDS rounds (default 5, as the
// write path's slices): each a listen replaying the backlog, then the baseline sending it,
// so a neighbour's load on this shared machine falls on both alike; the ratio is the median
// of the rounds' ratios, the rates shown the medians of each side's. Listen keeps a window
// of deliveries in flight to an app, 16 at first and up to 64 while it answers quickly
// (WINDOW in src/webhooks/forwarder.ts); the baseline POSTs with 16 in flight over 16
// connections and again with 64 over 64, and its rate is the faster of the two (in one
// process, more connections cost it more than the round trips they hide; with 1, the
// comparison would only time round trips, which a window is there to hide). Loss is
// counted by unique event ids (an event that has not arrived BENCH_IDLE_MS, default
// 10,000, after the last arrival is lost). Each round also sends the bodies from a child
// process at the widest window (bench/support/signed-posts.js), shown beside the row, not
// as its baseline: listen is a process of its own, and so is that sender, so listen's own
// work an event shows apart from what being another process on two shared cores costs.
// Latency: BENCH_LATENCY_EVENTS (default 1,000: of 200, the p99 was the second slowest, so
// two stalls of the machine decided the row) created one at a time through the running
// listen, each once the previous one arrived. Listen's latency is from the moment the
// event exists (the create request answered: the sandbox answers once the event is on
// disk and handed to the tunnel) to its receipt, 0 when the app had it first; the time from
// the start of the create request is shown beside it (it adds the write path, row 1). The
// baseline's: one at a time, from the start of its POST to the app's answer.
// Needs `npm run build` first.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { ROUNDS } from './support/load.js';
import { node, payBin, spawnReady, startSandbox, stop } from './support/processes.js';
import { signedSender } from './support/signed-posts.js';
import { int, ms, report, row } from './support/report.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 20_000);
const WARMUP_EVENTS = Number(process.env.BENCH_LISTEN_WARMUP ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const LATENCY_EVENTS = Number(process.env.BENCH_LATENCY_EVENTS ?? 1000);
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? 10_000);
/** listen's first and widest windows of deliveries in flight to one app (WINDOW in src/webhooks/forwarder.ts): the baseline's. */
const WINDOWS = [16, 64];
const signedPosts = fileURLToPath(new URL('support/signed-posts.js', import.meta.url));

const median = (values) => percentile(values, 50);
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

/**
 * The local app: answers 200 to everything and notes when the first and the last event of
 * a run arrived. In each phase (through listen, then the baseline's) it notes when each
 * event id first arrived (by the customer it carries, which the bench knows from its
 * create request), and keeps the bodies of the first WARMUP_EVENTS + EVENTS: listen's are
 * what the baseline sends. Both phases do the same work an event, so the app costs the
 * baseline what it costs listen (it shares the machine's two cores with either side).
 */
const phase = () => ({ arrivals: new Map(), eventIds: new Set(), deliveries: 0, bodies: [] }); // arrivals: customer id → { eventId, at }
let current = phase();
let firstArrival;
let lastArrival = 0;
const waiting = new Map(); // customer id → resolve(at)
const app = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    res.end();
    const at = performance.now();
    const event = JSON.parse(body);
    firstArrival ??= at;
    lastArrival = at;
    current.deliveries++;
    if (current.eventIds.has(event.id)) return;
    current.eventIds.add(event.id);
    current.arrivals.set(event.data.object.id, { eventId: event.id, at });
    if (current.bodies.length < WARMUP_EVENTS + EVENTS) current.bodies.push({ id: event.id, body });
    waiting.get(event.data.object.id)?.(at);
  });
});
await new Promise((resolve) => app.listen(0, '127.0.0.1', resolve));
const appUrl = `http://127.0.0.1:${app.address().port}/webhooks`;

/** Resolves once every customer's event arrived in the phase, or once none arrived for IDLE_MS. */
function settled(customers, { arrivals }) {
  return new Promise((resolve) => {
    const check = () => {
      if (customers.every((id) => arrivals.has(id)) || performance.now() - lastArrival > IDLE_MS) resolve();
      else setTimeout(check, 20);
    };
    check();
  });
}

const dir = mkdtempSync(join(tmpdir(), 'pay-bench-listen-'));
const sandbox = await startSandbox({ name: 'listen', db: join(dir, 'bench.db') });
let listen;
try {
  const api = new Agent({ connections: CONCURRENCY });
  const createCustomer = async () => {
    const response = await request(`${sandbox.baseUrl}/v1/customers`, {
      method: 'POST',
      headers: { ...sandbox.headers, 'content-type': 'application/json' },
      body: '{}',
      dispatcher: api,
    });
    if (response.statusCode !== 200) throw new Error(`POST /v1/customers answered ${response.statusCode}`);
    return (await response.body.json()).id;
  };

  // The backlog, created before listen runs: the first customer alone, so the newest event
  // is its customer.created, then the rest CONCURRENCY requests at a time.
  const customers = [await createCustomer()];
  const { body: newest } = await sandbox.call('GET', '/v1/events?limit=1');
  const first = newest.data[0];
  if (first?.data.object.id !== customers[0]) throw new Error('the first customer has no event of its own');
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (customers.length < WARMUP_EVENTS + EVENTS) {
        const pending = createCustomer();
        customers.push(pending);
        await pending;
      }
    }),
  );
  customers.splice(0, customers.length, ...(await Promise.all(customers)));

  // Throughput, in rounds: a listen delivers the backlog (--from its first event), timed
  // from the first timed arrival to the last; then the same bodies, signed with the same
  // secret, are POSTed straight to the app at each of WINDOWS, timed by the app alike.
  const rounds = [];
  let lost = 0;
  let duplicates = 0;
  let bodies;
  let bodiesFile;
  let sender;
  /** Events a second the app took in `taken`, of the timed customers' events: from the first arrival to the last. */
  const rateOf = (taken, how) => {
    const timed = customers.slice(WARMUP_EVENTS).filter((id) => taken.arrivals.has(id)).map((id) => taken.arrivals.get(id).at);
    if (timed.length < 2) throw new Error(`fewer than two timed events arrived ${how}`);
    return ((timed.length - 1) / (Math.max(...timed) - Math.min(...timed))) * 1000;
  };
  /** The baseline's rate at one window: the first WARMUP_EVENTS warm up, the rest are timed by the app. */
  const straight = async (size) => {
    current = phase();
    await sender.send(bodies.slice(0, WARMUP_EVENTS), size);
    firstArrival = undefined;
    const timedBodies = bodies.slice(WARMUP_EVENTS);
    await sender.send(timedBodies, size);
    return ((timedBodies.length - 1) / (lastArrival - firstArrival)) * 1000;
  };
  /** The same from a process of its own, at the widest window: as listen's deliveries come, from another process. */
  const fromOwnProcess = async (secret) => {
    const taken = (current = phase());
    const child = spawn(node, [signedPosts], { env: { ...process.env, BODIES: bodiesFile, SECRET: secret, APP_URL: appUrl, WINDOW: String(Math.max(...WINDOWS)) }, stdio: ['ignore', 'ignore', 'inherit'] });
    const [code] = await once(child, 'exit');
    if (code !== 0) throw new Error(`the sender in its own process exited ${code}`);
    return rateOf(taken, 'from the sender in its own process');
  };
  for (let round = 0; round < ROUNDS; round++) {
    // One listen of a profile at a time: the last round's goes first.
    if (listen) await stop(listen, 'SIGINT');
    const throughListen = (current = phase());
    firstArrival = undefined;
    lastArrival = performance.now();
    const started = spawnReady([payBin, 'webhooks', 'listen', '--forward-to', appUrl, '--from', first.id, '--print-secret', '--json'], sandbox.env);
    listen = started.child;
    const { secret } = await started.ready;
    sender ??= signedSender(appUrl, secret, Math.max(...WINDOWS));
    await settled(customers, throughListen);
    lost += customers.filter((id) => !throughListen.arrivals.has(id)).length;
    duplicates += throughListen.deliveries - throughListen.eventIds.size;
    const listenRate = rateOf(throughListen, 'through listen');
    // listen's bodies of the first round are what the baseline sends.
    if (!bodies) {
      bodies = throughListen.bodies;
      bodiesFile = join(dir, 'bodies.json');
      writeFileSync(bodiesFile, JSON.stringify(bodies));
    }

    const byWindow = {};
    for (const size of WINDOWS) byWindow[size] = await straight(size);
    const directRate = Math.max(...Object.values(byWindow));
    const ownProcessRate = await fromOwnProcess(secret);
    rounds.push({ listen: listenRate, direct: directRate, direct_by_window: byWindow, ratio: listenRate / directRate, own_process: ownProcessRate, own_process_ratio: listenRate / ownProcessRate });
  }

  // Latency through the last round's listen: one event at a time, each created once the previous arrived.
  const { arrivals } = (current = phase());
  const listenLatency = [];
  const requestLatency = [];
  let latencyLost = 0;
  for (let i = 0; i < LATENCY_EVENTS; i++) {
    const at = performance.now();
    let arrived;
    const arrival = new Promise((resolve) => (arrived = resolve));
    const timer = setTimeout(() => arrived(undefined), IDLE_MS);
    const id = await createCustomer();
    const answeredAt = performance.now();
    waiting.set(id, arrived);
    if (arrivals.has(id)) arrived(arrivals.get(id).at);
    const receivedAt = await arrival;
    clearTimeout(timer);
    waiting.delete(id);
    if (receivedAt === undefined) {
      latencyLost++;
    } else {
      listenLatency.push(Math.max(0, receivedAt - answeredAt));
      requestLatency.push(receivedAt - at);
    }
  }
  await api.close();

  const directLatency = [];
  for (const sent of bodies.slice(0, LATENCY_EVENTS)) {
    const at = performance.now();
    await sender.post(sent);
    directLatency.push(performance.now() - at);
  }
  await sender.close();

  const listenRate = median(rounds.map((r) => r.listen));
  const directRate = median(rounds.map((r) => r.direct));
  const ratio = median(rounds.map((r) => r.ratio));
  const ownProcessRate = median(rounds.map((r) => r.own_process));
  const ownProcessRatio = median(rounds.map((r) => r.own_process_ratio));
  const p99 = percentile(listenLatency, 99);
  const directP99 = percentile(directLatency, 99);
  const allLost = lost + latencyLost;
  process.stdout.write(
    [
      `Listen on Node ${process.version}: a backlog of ${WARMUP_EVENTS} + ${EVENTS} events (created first; the first ${WARMUP_EVENTS} warm up) delivered ${WINDOWS.join(' to ')} at a time, then ${LATENCY_EVENTS} created one at a time, received by a local app (database file)`,
      `  through pay webhooks listen   ${int(listenRate)} events/s · latency p50 ${ms(percentile(listenLatency, 50))} · p99 ${ms(p99)} (event created to receipt; from the start of the create request: p50 ${ms(percentile(requestLatency, 50))}, p99 ${ms(percentile(requestLatency, 99))}) · ${allLost} lost · ${duplicates} delivered twice`,
      `  POSTed straight to the app    ${int(directRate)} events/s (the faster of ${WINDOWS.join(' and ')} in flight) · latency p50 ${ms(percentile(directLatency, 50))} · p99 ${ms(directP99)} (one process, one at a time)`,
      `  rounds (listen / straight)    ${rounds.map((r) => `${int(r.listen)} / ${int(r.direct)} (${r.ratio.toFixed(2)}×)`).join(' · ')}; medians shown, ratio the rounds' median`,
      `  from a process of its own     ${int(ownProcessRate)} events/s (${Math.max(...WINDOWS)} in flight), as listen's deliveries come: listen against it ${ownProcessRatio.toFixed(2)}× (rounds ${rounds.map((r) => r.own_process_ratio.toFixed(2)).join(', ')}); shown, not the row's baseline`,
      '',
    ].join('\n'),
  );
  report([
    row({
      id: 4,
      name: 'events through `listen` to a local app',
      value: `${int(listenRate)}/s, p99 ${ms(p99)}, ${allLost} lost`,
      metrics: {
        events_per_second: listenRate,
        p50_ms: percentile(listenLatency, 50),
        p99_ms: p99,
        from_request_p50_ms: percentile(requestLatency, 50),
        from_request_p99_ms: percentile(requestLatency, 99),
        events: WARMUP_EVENTS + EVENTS + LATENCY_EVENTS,
        warmup_events: WARMUP_EVENTS,
        lost: allLost,
        duplicates,
        windows: WINDOWS,
        rounds,
        own_process_events_per_second: ownProcessRate,
        own_process_ratio: ownProcessRatio,
      },
      baseline: `the same signed events POSTed straight to the app: ${int(directRate)}/s, p99 ${ms(directP99)}`,
      baselineMetrics: { events_per_second: directRate, p50_ms: percentile(directLatency, 50), p99_ms: directP99 },
      ratio,
      goal: '≥ 0.8×, p99 ≤ 5 ms, zero loss',
      met: ratio >= 0.8 && p99 <= 5 && allLost === 0,
      moonshot: '1.0×',
      moonshotMet: ratio >= 1 && p99 <= 5 && allLost === 0,
    }),
  ]);
} finally {
  if (listen) await stop(listen, 'SIGINT');
  await sandbox.stop();
  app.close();
  rmSync(dir, { recursive: true, force: true });
}
