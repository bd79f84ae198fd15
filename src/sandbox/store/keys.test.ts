import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { Store } from './index.js';
import { keyFileOf, SandboxKeys } from './keys.js';
import { MIGRATIONS } from './migrations.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDb = () => {
  const dir = mkdtempSync(join(tmpdir(), 'pay-keys-'));
  dirs.push(dir);
  return join(dir, 'sandbox.db');
};
const bytesOf = (file: string) => [file, `${file}-wal`].filter(existsSync).map((f) => readFileSync(f).toString('latin1')).join('');

describe('the key file', () => {
  it('is made once beside the database, mode 0600, and read back on the next open', () => {
    const db = tempDb();
    const first = SandboxKeys.open(db);
    expect(first.created).toBe(true);
    expect(statSync(keyFileOf(db)).mode & 0o777).toBe(0o600);
    const again = SandboxKeys.open(db);
    expect(again.created).toBe(false);
    expect(again.keys.bodyMac({ a: 1 })).toBe(first.keys.bodyMac({ a: 1 }));
    expect(again.keys.fingerprintKey('acct_a')).toEqual(first.keys.fingerprintKey('acct_a'));
    expect(first.keys.fingerprintKey('acct_a')).not.toEqual(first.keys.fingerprintKey('acct_b'));
  });

  it('refuses a file that is not a key, rather than replace it', () => {
    const db = tempDb();
    writeFileSync(keyFileOf(db), 'not a key');
    expect(() => SandboxKeys.open(db)).toThrow(/not a sandbox key file/);
  });

  it('takes an empty file for none, as a start killed between creating it and writing it leaves one: nothing was keyed with it', () => {
    const db = tempDb();
    writeFileSync(keyFileOf(db), '', { mode: 0o600 });
    const opened = SandboxKeys.open(db);
    expect(opened.created).toBe(true);
    expect(readFileSync(keyFileOf(db), 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
    expect(statSync(keyFileOf(db)).mode & 0o777).toBe(0o600);
    expect(SandboxKeys.open(db).keys.bodyMac({ a: 1 })).toBe(opened.keys.bodyMac({ a: 1 }));
  });

  it('seals and unseals; another key cannot unseal', () => {
    const a = SandboxKeys.open(':memory:').keys;
    const b = SandboxKeys.open(':memory:').keys;
    const sealed = a.seal('whsec_abc');
    expect(sealed).not.toContain('whsec_abc');
    expect(a.unseal(sealed)).toBe('whsec_abc');
    expect(() => b.unseal(sealed)).toThrow();
  });

  it('lost, the keyed clock advances go with the idempotency records: their body MACs can no longer match a retry', () => {
    const db = tempDb();
    const store = new Store(db);
    const account = store.db.transaction(() => store.accounts.upsert({ apiKey: 'sk_test_key_file_lost_0001', clockNow: '2030-01-01T00:00:00Z' }));
    store.db.transaction(() => store.accounts.setClockAdvance(account.id, { to: '2031-01-01T00:00:00Z', key: 'k', body_hash: store.keys.bodyMac({ days: 365 }) }));
    store.close();
    rmSync(keyFileOf(db));
    const reopened = new Store(db);
    expect(reopened.accounts.clockAdvance(account.id)).toBeUndefined();
    reopened.close();
  });
});

describe('migrating a database from before the key file', () => {
  it('drops the fingerprint key and idempotency records, seals webhook secrets, and leaves no trace in the file', () => {
    const file = tempDb();
    const accountSecret = 'f'.repeat(20) + 'oldaccountsecret0123456789';
    const webhookSecret = 'whsec_OldPlainSecretOfTheEndpoint0123';
    const minted = 'sk_test_mintedkeyinanoldresponse0123456789';
    const old = new DatabaseSync(file);
    old.exec('PRAGMA journal_mode = WAL');
    for (const sql of MIGRATIONS.slice(0, 3)) old.exec(sql);
    old.exec('PRAGMA user_version = 3');
    old.prepare('INSERT INTO accounts (id, api_key_hash, secret, clock_now, created) VALUES (?, ?, ?, ?, ?)').run('acct_old', 'h'.repeat(64), accountSecret, '2030-01-01T00:00:00Z', '2030-01-01T00:00:00Z');
    old.prepare('INSERT INTO idempotency (account, key, method, path, body_hash, status, response, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run('acct_old', 'k1', 'POST', '/v1/test-helpers/accounts', 'a'.repeat(64), 200, JSON.stringify({ api_key: minted }), '2030-01-01T00:00:00Z');
    old.prepare('INSERT INTO webhook_secrets (endpoint_id, account, secret) VALUES (?, ?, ?)').run('we_old', 'acct_old', webhookSecret);
    old.close();
    expect(bytesOf(file)).toContain(accountSecret);

    const store = new Store(file);
    try {
      const columns = store.db.all<{ name: string }>("SELECT name FROM pragma_table_info('accounts')").map((c) => c.name);
      expect(columns).not.toContain('secret');
      expect(store.db.get<{ n: number }>('SELECT count(*) AS n FROM idempotency')!.n).toBe(0);
      expect(store.deliveries.secretOf('acct_old', 'we_old')).toBe(webhookSecret);
      const bytes = bytesOf(file);
      for (const secret of [accountSecret, webhookSecret, minted]) expect(bytes).not.toContain(secret);
    } finally {
      store.close();
    }
  });
});
