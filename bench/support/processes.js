// The processes a bench measures, each in its own process so the load generator in the
// bench's process never shares their thread: `pay …` (the built bin/pay.js), a sandbox
// started through it, the bare node:http server the sandbox is compared with, and the
// floor of row 1 (floor-server.js) shown beside it.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';

/** The pinned Node that runs `npm run bench`; every child runs on it too. */
export const node = process.execPath;
export const payBin = fileURLToPath(new URL('../../bin/pay.js', import.meta.url));
const bareServer = fileURLToPath(new URL('bare-server.js', import.meta.url));
const floorServer = fileURLToPath(new URL('floor-server.js', import.meta.url));

/** A throwaway config dir and the environment of a `pay` child: no profile of the user's leaks in. */
export function payEnvironment(name) {
  const configDir = mkdtempSync(join(tmpdir(), `pay-bench-${name}-`));
  const account = `acct_bench_${name.replace(/\W/g, '_')}`;
  const apiKey = `sk_test_bench_${name.replace(/\W/g, '_')}_abcdefghijklmnopqrstuvwxyz`;
  const env = { ...process.env, PAY_CONFIG_DIR: configDir, NO_COLOR: '1', PAY_SANDBOX_ACCOUNT: account, PAY_SANDBOX_API_KEY: apiKey };
  for (const key of ['PAY_PROFILE', 'PAY_BASE_URL', 'PAY_ACCOUNT', 'PAY_API_KEY']) delete env[key];
  return { configDir, account, apiKey, env, remove: () => rmSync(configDir, { recursive: true, force: true }) };
}

/**
 * Spawns `node <args>` and resolves once it printed its first stdout line (a JSON ready
 * line); later lines are drained so the child never blocks on a full pipe.
 */
export function spawnReady(args, env) {
  const child = spawn(node, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const ready = new Promise((resolve, reject) => {
    let buffer = '';
    const read = (chunk) => {
      buffer += chunk;
      const newline = buffer.indexOf('\n');
      if (newline === -1) return;
      child.stdout.off('data', read);
      child.stdout.resume();
      child.off('exit', early);
      resolve(JSON.parse(buffer.slice(0, newline)));
    };
    const early = (code, signal) => reject(new Error(`${args.join(' ')} exited (${code ?? signal}) before it was ready`));
    child.stdout.on('data', read);
    child.once('exit', early);
  });
  return { child, ready };
}

/** Stops a child with a signal and waits for it to exit (SIGINT/SIGTERM let `pay` close cleanly). */
export function stop(child, signal = 'SIGTERM') {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  return exited;
}

/**
 * `pay sandbox start --port 0 --db FILE --json` as its own process (a database file, as
 * the sandbox runs by default). Resolves with its base URL, pid, auth headers, a JSON
 * `call` helper and `stop`.
 */
export async function startSandbox({ name, db, clock }) {
  const environment = payEnvironment(name);
  const args = [payBin, 'sandbox', 'start', '--port', '0', '--json', '--db', db, ...(clock ? ['--clock', clock] : [])];
  const { child, ready } = spawnReady(args, environment.env);
  const line = await ready;
  const headers = { 'pay-account': environment.account, 'pay-api-key': environment.apiKey };
  return {
    ...environment,
    child,
    pid: line.pid,
    baseUrl: line.base_url,
    headers,
    /** One JSON request; anything but 2xx is a failure of the bench. */
    call: (method, path, body, options = {}) => call(line.base_url, method, path, body, { ...options, headers: { ...headers, ...options.headers } }),
    async stop() {
      await stop(child);
      environment.remove();
    },
  };
}

/** The bare baseline: node:http answering every request with `body` (fixed JSON), in a child process. */
export async function startBare(body) {
  const { child, ready } = spawnReady([bareServer], { ...process.env, BARE_BODY: body });
  return started(child, ready);
}

/** Row 1's floor (floor-server.js), in a child process: `db` its database file, `headers` the auth it takes, `intent` and `charge` what it answers like. */
export async function startFloor({ db, headers, intent, charge }) {
  const { child, ready } = spawnReady([floorServer], { ...process.env, FLOOR_DB: db, FLOOR_HEADERS: JSON.stringify(headers), FLOOR_INTENT: intent, FLOOR_CHARGE: charge });
  return started(child, ready);
}

async function started(child, ready) {
  const { port } = await ready;
  return { child, pid: child.pid, baseUrl: `http://127.0.0.1:${port}`, stop: () => stop(child) };
}

async function call(baseUrl, method, path, body, { headers = {}, timeoutMs = 30_000 } = {}) {
  const response = await request(new URL(path, baseUrl), {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const text = await response.body.text();
  if (response.statusCode >= 300) throw new Error(`${method} ${path} answered ${response.statusCode}: ${text.slice(0, 300)}`);
  return { body: JSON.parse(text), text };
}

/** A process's resident memory now and at its peak, in bytes (Linux /proc). */
export function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/** CPU seconds (user + system) a process has used so far (Linux /proc; clock ticks of 1/100 s). */
export function cpuSecondsOf(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the parenthesised command name, which may itself hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** A test card payment method, created through the API (its number is never kept). */
export async function createCard(sandbox) {
  const { body } = await sandbox.call('POST', '/v1/payment-methods', {
    type: 'card',
    card: { number: '4242424242424242', exp_month: 12, exp_year: 2045, cvc: '123' },
  });
  return body.id;
}

/** Counts the objects of a list endpoint (`query` filters it), page by page, newest first. */
export async function countList(sandbox, path, query = {}) {
  let count = 0;
  let after;
  for (;;) {
    const params = new URLSearchParams({ ...query, limit: '100', ...(after ? { starting_after: after } : {}) });
    const { body } = await sandbox.call('GET', `${path}?${params}`);
    count += body.data.length;
    if (!body.has_more) return count;
    after = body.data.at(-1).id;
  }
}
