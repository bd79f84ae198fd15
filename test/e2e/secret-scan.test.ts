import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Receiver } from '../support/receiver.js';
import { baseEnv, type PayProcess, type PayResult, runPay, spawnPay } from './harness.js';

/**
 * Issue 9's acceptance: after a realistic session with the built CLI against a real
 * sandbox on a database file, nothing anywhere holds a whole API key, a card number or
 * a CVC, nor a stored value from which a CVC is recovered by trying every candidate.
 */

const work = mkdtempSync(join(tmpdir(), 'pay-secret-scan-'));
const configDir = join(work, 'config');
const dbFile = join(work, 'data', 'sandbox.db');
const ACCOUNT = `acct_scan${process.pid}`;
const KEY = `sk_test_scan_${process.pid}_first_0123456789abcdefghij`;
const SECOND_KEY = `sk_test_scan_${process.pid}_second_klmnopqrstuvwxyz98765`;
const env = baseEnv(configDir, { PAY_SANDBOX_ACCOUNT: ACCOUNT, PAY_SANDBOX_API_KEY: KEY });

interface Card {
  number: string;
  cvc: string;
}
/** Every card the session uses (distinct last 4 digits, so a masked trace names its card). */
const CARDS = {
  visa: { number: '4242424242424242', cvc: '482' },
  amex: { number: '378282246310005', cvc: '7391' },
  discover: { number: '6011111111111117', cvc: '951' },
  declined: { number: '4000000000000002', cvc: '306' },
  mastercard: { number: '5555555555554444', cvc: '654' },
  insufficient: { number: '4000000000009995', cvc: '815' },
  jcb: { number: '3566002020360505', cvc: '270' },
  // `pay trigger`'s own test card (src/cli/commands/trigger/flows.ts).
  trigger: { number: '4242424242424242', cvc: '123' },
} satisfies Record<string, Card>;
/** Card numbers sent where no card number belongs: refused, each must still be echoed nowhere. */
const STRAY = {
  unknownField: '4000777788889991',
  keyName: '4000888899990006',
  path: '4000999900001111',
  checkoutZip: '4000555566667775',
};

/** Everything captured: each command's stdout and stderr, the listener's, the deliveries. */
const outputs: Array<{ where: string; text: string }> = [];
/** Bytes of files, read while everything runs and again after it stopped. */
const files: Array<{ where: string; bytes: Buffer }> = [];
const endpointApp = new Receiver();
const listenApp = new Receiver();
let listener: PayProcess | undefined;
let sandboxPid: number | undefined;

async function pay(args: string[], options: { input?: string; expect?: number } = {}): Promise<PayResult> {
  const result = await runPay(args, { env, input: options.input, timeout: 60_000 });
  outputs.push({ where: `pay ${args.join(' ')} (stdout)`, text: result.stdout }, { where: `pay ${args.join(' ')} (stderr)`, text: result.stderr });
  expect(result.exitCode, `pay ${args.join(' ')}: ${result.stderr}`).toBe(options.expect ?? 0);
  return result;
}

const json = async <T = any>(args: string[], options: { input?: string } = {}): Promise<T> => JSON.parse((await pay([...args, '--json'], options)).stdout);

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)]));
}

/** The config dir (config.json aside: the one place a key may be kept), the database and its WAL and shm. */
function snapshot(when: string): void {
  for (const file of walk(configDir)) {
    if (relative(configDir, file) === 'config.json') continue;
    files.push({ where: `${when}: ${relative(work, file)}`, bytes: readFileSync(file) });
  }
  for (const file of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`]) {
    if (existsSync(file)) files.push({ where: `${when}: ${relative(work, file)}`, bytes: readFileSync(file) });
  }
}

/** Every text scanned: outputs, deliveries, and each file as bytes (latin1 keeps every byte). */
const texts = () => [...outputs, ...files.map(({ where, bytes }) => ({ where, text: bytes.toString('latin1') }))];

/** Every API key of every account: the known ones and those the session generated (kept in config.json). */
function apiKeys(): string[] {
  const config = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')) as { profiles?: Record<string, { api_key?: string }> };
  const saved = Object.values(config.profiles ?? {}).flatMap((p) => (p.api_key ? [p.api_key] : []));
  return [...new Set([KEY, SECOND_KEY, ...saved])];
}

beforeAll(async () => {
  mkdirSync(join(work, 'data'));
  await endpointApp.start();
  await listenApp.start();
  const ready = await json(['sandbox', 'start', '--detach', '--port', '0', '--db', dbFile]);
  sandboxPid = ready.pid;

  const endpoint = await json(['webhooks', 'endpoints', 'create', '--url', endpointApp.url('/endpoint'), '--enabled-events', '*']);
  endpointApp.secret = endpoint.secret;
  const before = new Set((await json(['api', 'GET', '/v1/events', '-F', 'limit=100'])).data.map((e: { id: string }) => e.id));
  listener = spawnPay(['webhooks', 'listen', '--forward-to', listenApp.url('/listen')], env);
  await listener.line(/^Ready!/);

  // Cards, every way the CLI takes them, traced.
  const customer = await json(['customers', 'create', '--email', 'scan@example.com', '--first-name', 'Scan']);
  const card = async (c: Card, exp: string[], extra: string[] = []) =>
    (await json(['payment-methods', 'create', '--card', c.number, ...exp, '--cvc', c.cvc, '--zip', '94110', '--verbose', ...extra])).id as string;
  const visa = await card(CARDS.visa, ['--exp', '12/34'], ['--customer', customer.id]);
  const amex = await card(CARDS.amex, ['--exp-month', '11', '--exp-year', '2033']);
  const discover = await card(CARDS.discover, ['--exp', '01/35']);
  const declined = await card(CARDS.declined, ['--exp', '12/34']);
  const mastercard = (await json(['api', 'POST', '/v1/payment-methods', '-f', 'type=card', '-f', `card.number=${CARDS.mastercard.number}`, '-F', 'card.exp_month=12', '-F', 'card.exp_year=2034', '-f', `card.cvc=${CARDS.mastercard.cvc}`, '--verbose'])).id;
  const insufficient = (await json(['api', 'POST', '/v1/payment-methods', '--data-json', JSON.stringify({ type: 'card', card: { number: CARDS.insufficient.number, exp_month: 3, exp_year: 2031, cvc: CARDS.insufficient.cvc } }), '--verbose'])).id;
  // Refused online (processor B brands only in person): the request still carried the card.
  await pay(['payment-methods', 'create', '--card', CARDS.jcb.number, '--exp', '12/34', '--cvc', CARDS.jcb.cvc, '--verbose'], { expect: 6 });

  // Card numbers where none belongs, traced: an unknown field, a field's name, an id in the
  // path, the hosted page's ZIP field (its answer is the page written back).
  await pay(['api', 'POST', '/v1/payment-methods', '-f', 'type=card', '-f', `card.pan=${STRAY.unknownField}`, '-F', 'card.exp_month=12', '-F', 'card.exp_year=2034', '--verbose'], { expect: 1 });
  const strayKey = { type: 'card', card: { number: CARDS.visa.number, exp_month: 12, exp_year: 2034, cvc: CARDS.visa.cvc }, [STRAY.keyName]: 'x' };
  await pay(['api', 'POST', '/v1/payment-methods', '--data-json', JSON.stringify(strayKey), '--verbose'], { expect: 1 });
  await pay(['api', 'GET', `/v1/payment-methods/${STRAY.path}`, '--verbose'], { expect: 4 });
  const session = await json(['checkout', 'create', '--amount', '1500', '--currency', 'usd', '--success-url', 'https://example.com/ok', '--cancel-url', 'https://example.com/no']);
  const form = new URLSearchParams({ number: CARDS.visa.number, exp: '12/34', cvc: CARDS.visa.cvc, zip: STRAY.checkoutZip });
  const page = await fetch(session.checkout_session_url, { method: 'POST', body: form, redirect: 'manual' });
  expect(page.status).toBe(400);
  outputs.push({ where: 'checkout page answer', text: await page.text() });

  // Intents paid with them, declines included.
  for (const pm of [visa, amex, discover, mastercard]) await json(['intents', 'create', '--amount', '1099', '--currency', 'usd', '--confirm', '--payment-method', pm, '--verbose']);
  for (const pm of [declined, insufficient]) await pay(['intents', 'create', '--amount', '2000', '--currency', 'usd', '--confirm', '--payment-method', pm, '--verbose'], { expect: 6 });
  await pay(['trigger', 'payment_intent.succeeded', '--verbose']);
  await pay(['api', 'GET', '/v1/payment-methods', '-F', 'limit=20', '--verbose']);

  // More accounts: one with a key given on stdin, one generated; a card in the second.
  await json(['sandbox', 'accounts', 'add', '--account', `${ACCOUNT}b`, '--api-key-stdin', '--name', 'second', '--verbose'], { input: SECOND_KEY });
  await json(['sandbox', 'accounts', 'add', '--name', 'third', '--verbose']);
  await json(['--profile', 'second', 'payment-methods', 'create', '--card', CARDS.discover.number, '--exp', '02/36', '--cvc', CARDS.discover.cvc, '--verbose']);

  // Every event since listen started reaches the local app through listen, and the endpoint.
  const events = (await json(['api', 'GET', '/v1/events', '-F', 'limit=100'])).data.map((e: { id: string }) => e.id).filter((id: string) => !before.has(id));
  expect(events.length).toBeGreaterThan(10);
  await listenApp.waitFor(() => events.every((id: string) => listenApp.ids().has(id)), 30_000, 'listen to forward every event');
  await endpointApp.waitFor(() => events.every((id: string) => endpointApp.ids().has(id)), 30_000, 'the endpoint to receive every event');

  snapshot('running');
  listener.signal('SIGINT');
  expect(await listener.exited()).toBe(0);
  outputs.push({ where: 'pay webhooks listen (stdout)', text: listener.stdout.join('\n') }, { where: 'pay webhooks listen (stderr)', text: listener.stderr() });
  listener = undefined;
  await pay(['sandbox', 'stop']);
  sandboxPid = undefined;
  snapshot('stopped');
  for (const app of [endpointApp, listenApp]) {
    for (const r of app.received) outputs.push({ where: `delivery ${r.path} ${r.id}`, text: JSON.stringify(r.headers) + r.body });
  }
}, 240_000);

afterAll(async () => {
  listener?.signal('SIGKILL');
  await listener?.exited();
  if (sandboxPid !== undefined) {
    try {
      process.kill(sandboxPid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await endpointApp.stop();
  await listenApp.stop();
  rmSync(work, { recursive: true, force: true });
});

/** A CVC next to a `cvc` key, however it is quoted or escaped: `"cvc":"482"`, `cvc=482`, `\"cvc\":482`. */
const cvcInContext = (cvc: string) => new RegExp(`cvc[^0-9A-Za-z]{0,6}${cvc}(?![0-9])`, 'i');

/**
 * The bodies the CLI sent with a card, as its --verbose trace shows them (number and CVC
 * masked), with the number put back: templates in which to try each CVC candidate.
 */
function cardBodies(): Array<{ card: Card; body: (cvc: string) => unknown }> {
  const lines = new Set(outputs.flatMap(({ text }) => text.split('\n').filter((line) => line.startsWith('> {') && line.includes('"cvc"'))));
  return [...lines].map((line) => {
    const traced = JSON.parse(line.slice(2)) as { card: { number: string } };
    const card = Object.values(CARDS).find((c) => traced.card.number === `…${c.number.slice(-4)}`)!;
    expect(card, line).toBeDefined();
    return { card, body: (cvc: string) => ({ ...traced, card: { ...traced.card, number: card.number, cvc } }) };
  });
}

/** The sandbox's old, unkeyed body hash (src/sandbox/store/idempotency.ts before issue 9). */
const unkeyedHash = (body: unknown) => createHash('sha256').update(JSON.stringify(body ?? null)).digest('hex');

describe('secret scan over a whole session (issue 9)', () => {
  it('captured what it scans: outputs, traces, the sandbox log, the database and its WAL, the spool', () => {
    const where = files.map((f) => f.where);
    expect(where).toContain('running: config/sandbox.log');
    expect(where).toContain('running: data/sandbox.db');
    expect(where).toContain('running: data/sandbox.db-wal');
    expect(where.some((w) => /^running: config\/listen\/lsn_\w+\.db$/.test(w)), where.join('\n')).toBe(true);
    expect(where.some((w) => /^stopped: config\/listen\/lsn_\w+\.db$/.test(w))).toBe(true);
    expect(outputs.some(({ text }) => text.includes('> POST'))).toBe(true);
    expect(apiKeys().length).toBeGreaterThanOrEqual(3);
  });

  it('config.json, the one place a key is kept, is its owner\'s alone (0600)', () => {
    expect(statSync(join(configDir, 'config.json')).mode & 0o777).toBe(0o600);
  });

  it('no whole API key of any account anywhere', () => {
    const found = texts().flatMap(({ where, text }) => apiKeys().filter((key) => text.includes(key)).map((key) => `${where}: API key ${key.slice(0, 8)}…${key.slice(-4)}`));
    expect(found).toEqual([]);
  });

  it('no card number anywhere', () => {
    const numbers = [...new Set([...Object.values(CARDS).map((c) => c.number), ...Object.values(STRAY)])];
    const found = texts().flatMap(({ where, text }) => numbers.filter((n) => text.includes(n)).map((n) => `${where}: card number …${n.slice(-4)}`));
    expect(found).toEqual([]);
  });

  it('no CVC next to a cvc key anywhere', () => {
    const found = texts().flatMap(({ where, text }) => Object.values(CARDS).filter((c) => cvcInContext(c.cvc).test(text)).map((c) => `${where}: CVC of card …${c.number.slice(-4)}`));
    expect(found).toEqual([]);
  });

  it('no stored 64-hex value is the unkeyed hash of a sent card body with any of the 10,000 CVC candidates', () => {
    const bodies = cardBodies();
    // Every card request was traced: 7 payment methods in all, and the trigger's.
    expect(bodies.length).toBeGreaterThanOrEqual(8);
    const candidates = [...Array.from({ length: 10_000 }, (_, i) => String(i).padStart(4, '0')), ...Array.from({ length: 1_000 }, (_, i) => String(i).padStart(3, '0'))];
    const recover = new Map<string, string>();
    for (const { card, body } of bodies) {
      for (const cvc of candidates) recover.set(unkeyedHash(body(cvc)), `CVC ${cvc} of card …${card.number.slice(-4)}`);
    }
    const found = files.flatMap(({ where, bytes }) =>
      [...new Set(bytes.toString('latin1').match(/[0-9a-f]{64}/gi) ?? [])].flatMap((hex) => (recover.has(hex.toLowerCase()) ? [`${where}: ${hex.slice(0, 12)}… recovers ${recover.get(hex.toLowerCase())}`] : [])),
    );
    expect(found).toEqual([]);
  });
});
