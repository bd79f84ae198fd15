import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { IdempotencyStore, type StoredResponse } from './idempotency.js';
import { Store } from './index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function openStore(file?: string): { store: Store; file: string } {
  if (file === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'pay-idempotency-'));
    dirs.push(dir);
    file = join(dir, 'sandbox.db');
  }
  const store = new Store(file);
  store.db.transaction(() => {
    for (const id of ['acct_a', 'acct_b']) store.accounts.upsert({ id, apiKey: `sk_test_${id}`, clockNow: '2030-01-01T00:00:00Z' });
  });
  return { store, file };
}
const record = (response: string, created = '2030-01-01T00:00:00Z'): StoredResponse => ({
  method: 'POST', path: '/v1/customers', body_hash: 'mac', status: 200, response, created,
});
const responseOf = (idempotency: IdempotencyStore, account: string, key: string) => idempotency.find(account, key)?.response;

describe('idempotency records, found through the index in memory', () => {
  it('are found again once the database is reopened (the index is built at open); a fresh key finds none', () => {
    const { store, file } = openStore();
    store.db.transaction(() => {
      store.idempotency.save('acct_a', 'k1', record('"a1"'));
      store.idempotency.save('acct_b', 'k1', record('"b1"'));
      store.idempotency.save('acct_a', 'k2', record('"a2"'));
    });
    store.close();

    const reopened = openStore(file).store;
    expect(responseOf(reopened.idempotency, 'acct_a', 'k1')).toBe('"a1"');
    expect(responseOf(reopened.idempotency, 'acct_b', 'k1')).toBe('"b1"');
    expect(responseOf(reopened.idempotency, 'acct_a', 'k2')).toBe('"a2"');
    expect(responseOf(reopened.idempotency, 'acct_b', 'k2')).toBeUndefined();
    expect(responseOf(reopened.idempotency, 'acct_a', 'fresh')).toBeUndefined();
    reopened.close();
  });

  it('are seen by a later request of the same group before it commits, and not at all once their request rolled back', async () => {
    const { store, file } = openStore();
    const { db, idempotency } = store;
    const first = db.grouped(() => idempotency.save('acct_a', 'kept', record('"kept"')));
    const failing = db.grouped(() => {
      idempotency.save('acct_a', 'gone', record('"gone"'));
      expect(responseOf(idempotency, 'acct_a', 'gone')).toBe('"gone"');
      throw new Error('this request fails after saving its key');
    });
    const later = db.grouped(() => [responseOf(idempotency, 'acct_a', 'kept'), responseOf(idempotency, 'acct_a', 'gone')]);
    await first;
    await expect(failing).rejects.toThrow('fails after saving');
    expect(await later).toEqual(['"kept"', undefined]);
    // The key of the request rolled back is free: a retry of it runs and is kept.
    await db.grouped(() => idempotency.save('acct_a', 'gone', record('"retried"')));
    store.close();

    const reopened = openStore(file).store;
    expect(responseOf(reopened.idempotency, 'acct_a', 'kept')).toBe('"kept"');
    expect(responseOf(reopened.idempotency, 'acct_a', 'gone')).toBe('"retried"');
    reopened.close();
  });

  it('are each found when their keys share a hash, through replacing, expiring and a rollback of deletions', () => {
    const { store } = openStore();
    const { db } = store;
    const shared = new IdempotencyStore(db, store.accounts, store.objects, () => 7);
    const rows = () => db.all<{ key: string }>('SELECT key FROM idempotency ORDER BY seq').map((r) => r.key);
    db.transaction(() => {
      shared.save('acct_a', 'k1', record('"a1"', '2030-01-01T00:00:00Z'));
      shared.save('acct_a', 'k2', record('"a2"', '2030-01-01T12:00:00Z'));
      shared.save('acct_b', 'k1', record('"b1"', '2030-01-01T00:00:00Z'));
    });
    expect(['k1', 'k2'].map((key) => responseOf(shared, 'acct_a', key))).toEqual(['"a1"', '"a2"']);
    expect(responseOf(shared, 'acct_b', 'k1')).toBe('"b1"');

    // An expired record replaced (the pipeline replays one only while it lasts): one row of the key, the newest.
    db.transaction(() => shared.save('acct_a', 'k1', record('"a1 again"', '2030-01-03T00:00:00Z')));
    expect(responseOf(shared, 'acct_a', 'k1')).toBe('"a1 again"');
    expect(responseOf(shared, 'acct_a', 'k2')).toBe('"a2"');
    expect(rows()).toEqual(['k2', 'k1', 'k1']);

    // Deletions rolled back leave every record findable, as their rows are.
    expect(() => db.transaction(() => {
      shared.clear('acct_a');
      expect(responseOf(shared, 'acct_a', 'k2')).toBeUndefined();
      throw new Error('roll back');
    })).toThrow('roll back');
    expect(['k1', 'k2'].map((key) => responseOf(shared, 'acct_a', key))).toEqual(['"a1 again"', '"a2"']);

    // A day past k2 (kept 12 hours after the first k1), before the new k1: k2 alone goes, and acct_b keeps its own.
    db.transaction(() => shared.forgetExpired('acct_a', '2030-01-02T12:00:00Z'));
    expect(['k1', 'k2'].map((key) => responseOf(shared, 'acct_a', key))).toEqual(['"a1 again"', undefined]);
    expect(responseOf(shared, 'acct_b', 'k1')).toBe('"b1"');
    db.transaction(() => shared.clearAll());
    expect(responseOf(shared, 'acct_a', 'k1')).toBeUndefined();
    expect(responseOf(shared, 'acct_b', 'k1')).toBeUndefined();
    store.close();
  });
});
