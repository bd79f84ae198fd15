import { createHash, createHmac } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/domain/cards.js';
import { keyFileOf, SandboxKeys } from '../../src/sandbox/store/keys.js';
import { type SandboxHandle, startSandbox } from './harness.js';

// Issue 9, items 3 and 4: what the sandbox's database file (and its WAL) keeps must not
// give back a card number, a CVC or a secret, even to someone who tries every CVC.

let sb: SandboxHandle;
const dir = mkdtempSync(join(tmpdir(), 'pay-secrets-'));
const dbFile = join(dir, 'sandbox.db');

beforeAll(async () => {
  sb = await startSandbox({ db: dbFile, clock: '2030-01-15' });
});
afterAll(async () => {
  await sb?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The database file and its WAL, as an attacker with a copy of them reads them. */
const fileBytes = () => [dbFile, `${dbFile}-wal`].filter(existsSync).map((f) => readFileSync(f).toString('latin1')).join('');

/** Every text value of every row of every table. */
function storedValues(): string[] {
  const db = new DatabaseSync(dbFile, { readOnly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>;
    return tables.flatMap(({ name }) =>
      (db.prepare(`SELECT * FROM "${name}"`).all() as Array<Record<string, unknown>>).flatMap((row) => Object.values(row).filter((v): v is string => typeof v === 'string')),
    );
  } finally {
    db.close();
  }
}

describe('a card payment method leaves nothing searchable for its number or CVC (item 3)', () => {
  const number = '378282246310005';
  const cvc = '7193';
  const body = (c: string) => ({ type: 'card', card: { number, exp_month: 11, exp_year: 2034, cvc: c }, billing_details: { address: { zip: '94110' } } });
  let created: { card: { fingerprint: string } };

  beforeAll(async () => {
    const res = await sb.http('POST', '/v1/payment-methods', body(cvc), { 'idempotency-key': 'card-secrets-1' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    created = res.body;
    // A replay still matches the body: the MAC is stable under the key file.
    const again = await sb.http('POST', '/v1/payment-methods', body(cvc), { 'idempotency-key': 'card-secrets-1' });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('neither the number nor the CVC is in the database or its WAL', () => {
    const bytes = fileBytes();
    expect(bytes).not.toContain(number);
    expect(bytes).not.toContain(cvc);
  });

  it('no stored value is a plain hash of the body for any of the 11,000 CVCs (000–999, 0000–9999)', () => {
    const candidates = new Set<string>();
    for (const digits of [3, 4]) {
      for (let i = 0; i < 10 ** digits; i++) {
        const digest = createHash('sha256').update(JSON.stringify(body(String(i).padStart(digits, '0')))).digest();
        candidates.add(digest.toString('hex'));
        candidates.add(digest.toString('base64'));
      }
    }
    const hits = storedValues().flatMap((value) => (value.match(/[0-9a-f]{64}|[A-Za-z0-9+/]{43}=/g) ?? []).filter((piece) => candidates.has(piece)));
    expect(hits).toEqual([]);
  });

  it('the fingerprint is keyed by the 0600 key file, and no stored value is its key', () => {
    expect(statSync(keyFileOf(dbFile)).mode & 0o777).toBe(0o600);
    const { keys, created: made } = SandboxKeys.open(dbFile);
    expect(made).toBe(false);
    expect(fingerprint(number, keys.fingerprintKey(sb.account))).toBe(created.card.fingerprint);

    const fp = created.card.fingerprint;
    expect(createHash('sha256').update(number).digest('hex').slice(0, 16)).not.toBe(fp);
    const keyed = storedValues().filter((value) => createHmac('sha256', value).update(number).digest('hex').slice(0, 16) === fp);
    expect(keyed).toEqual([]);
  });
});

describe('a stored response never holds a secret; a replay says it was shown once (item 4)', () => {
  it('a minted API key: in the first response only, and nowhere in the database', async () => {
    const first = await sb.http('POST', '/v1/test-helpers/accounts', {}, { 'idempotency-key': 'mint-account-1' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const apiKey: string = first.body.api_key;
    expect(apiKey).toMatch(/^sk_test_/);
    // An object like every other: id, object, created (its clock's now), livemode.
    expect(first.body).toMatchObject({ object: 'account', id: expect.stringMatching(/^acct_/), created: first.body.clock.now, livemode: false });
    expect(first.headers.get('idempotent-redacted')).toBeNull();

    const replay = await sb.http('POST', '/v1/test-helpers/accounts', {}, { 'idempotency-key': 'mint-account-1' });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.headers.get('idempotent-redacted')).toBe('api_key');
    expect(replay.body).toEqual({ ...first.body, api_key: '[redacted: shown once, in the first response]' });

    // The key works, and the database alone does not give it back.
    const clock = await sb.http('GET', '/v1/test-helpers/clock', undefined, { 'pay-account': first.body.id, 'pay-api-key': apiKey });
    expect(clock.status).toBe(200);
    expect(fileBytes()).not.toContain(apiKey);
  });

  it('a key another account already has is a conflict naming api_key, and adds no account', async () => {
    const profiles = () => Object.keys(JSON.parse(readFileSync(join(sb.configDir, 'config.json'), 'utf8')).profiles ?? {});
    const before = profiles();
    const taken = await sb.http('POST', '/v1/test-helpers/accounts', { api_key: sb.apiKey });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ code: 'invalid_state', param: 'api_key', message: expect.stringContaining('already has this api_key') });
    expect(JSON.stringify(taken.body)).not.toContain(sb.apiKey);
    const again = await sb.pay(['sandbox', 'accounts', 'add', '--api-key-stdin', '--json'], { input: sb.apiKey });
    expect(again.exitCode).toBe(5);
    expect(again.stdout).toBe('');
    expect(again.stderr).toContain('api_key');
    expect(profiles()).toEqual(before);
  });

  it('pay sandbox accounts add: the new profile has the key, the database does not', async () => {
    const added = await sb.json(['sandbox', 'accounts', 'add', '--name', 'second']);
    const config = JSON.parse(readFileSync(join(sb.configDir, 'config.json'), 'utf8'));
    const key = JSON.stringify(config).match(/sk_test_[A-Za-z0-9_]+/g)?.find((k) => k !== sb.apiKey);
    expect(key).toBeDefined();
    expect(added.account).toMatch(/^acct_/);
    expect(fileBytes()).not.toContain(key!);
    expect((await sb.pay(['customers', 'list', '--profile', 'second'])).exitCode).toBe(0);
  });

  it('a webhook signing secret: in the first response only, and nowhere in the database', async () => {
    const body = { url: 'http://127.0.0.1:9/hooks', enabled_events: ['*'] };
    const first = await sb.http('POST', '/v1/webhook-endpoints', body, { 'idempotency-key': 'mint-endpoint-1' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const secret: string = first.body.secret;
    expect(secret).toMatch(/^whsec_/);

    const replay = await sb.http('POST', '/v1/webhook-endpoints', body, { 'idempotency-key': 'mint-endpoint-1' });
    expect(replay.headers.get('idempotent-redacted')).toBe('secret');
    expect(replay.body.secret).toBe('[redacted: shown once, in the first response]');
    expect(replay.body.id).toBe(first.body.id);
    expect(fileBytes()).not.toContain(secret);
    expect(fileBytes()).not.toContain(secret.slice('whsec_'.length));
  });
});
