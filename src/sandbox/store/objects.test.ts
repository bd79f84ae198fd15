import { DatabaseSync } from 'node:sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BaseObject } from '../../domain/common.js';
import { rowOf } from '../../domain/ids.js';
import { Store } from './index.js';
import { SandboxKeys } from './keys.js';
import { MIGRATIONS } from './migrations.js';
import { Shapes } from './shapes.js';
import { Database } from './db.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDb = () => {
  const dir = mkdtempSync(join(tmpdir(), 'pay-store-'));
  dirs.push(dir);
  return join(dir, 'sandbox.db');
};

describe('objects stored without their key names (Shapes)', () => {
  it('read back as the same JSON, byte for byte, whatever the object', () => {
    const db = new Database(':memory:');
    const shapes = new Shapes(db);
    const json = fc.jsonValue().map((value) => JSON.parse(JSON.stringify(value)) as unknown);
    fc.assert(
      fc.property(fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('__proto__', '1', 'constructor')), json), (object) => {
        const text = db.transaction(() => shapes.encode(object));
        expect(JSON.stringify(shapes.decode(text))).toBe(JSON.stringify(object));
      }),
      { numRuns: 500 },
    );
    db.close();
  });

  it('never keep a shape whose transaction rolled back: its number may go to other keys', () => {
    const db = new Database(':memory:');
    const shapes = new Shapes(db);
    expect(() => db.transaction(() => {
      shapes.encode({ gone: 1 });
      throw new Error('roll back');
    })).toThrow('roll back');
    const kept = db.transaction(() => shapes.encode({ other: 2 }));
    const again = db.transaction(() => shapes.encode({ gone: 3 }));
    expect(shapes.decode(kept)).toEqual({ other: 2 });
    expect(shapes.decode(again)).toEqual({ gone: 3 });
    db.close();
  });
});

describe('the store', () => {
  it('finds an object and an event by the id that names its row, and by no other', () => {
    const store = new Store(':memory:');
    store.db.transaction(() => store.accounts.upsert({ id: 'acct_a', apiKey: 'sk_test_a', clockNow: '2030-01-01T00:00:00Z' }));
    const customer = store.db.transaction(() => store.objects.insert('acct_a', { id: store.objects.newId('customer'), object: 'customer', created: '2030-01-01T00:00:00Z', livemode: false }));
    const event = store.db.transaction(() => store.events.append('acct_a', 'customer.created', customer, '2030-01-01T00:00:00Z'));
    expect(store.objects.find('acct_a', 'customer', customer.id)).toEqual(customer);
    expect(store.events.find('acct_a', event.id)).toEqual(event);
    // Same row, other random characters: not this object.
    const forged = `${customer.id.slice(0, -1)}${customer.id.endsWith('A') ? 'B' : 'A'}`;
    expect(store.objects.find('acct_a', 'customer', forged)).toBeUndefined();
    expect(store.events.find('acct_a', `${event.id.slice(0, -1)}${event.id.endsWith('A') ? 'B' : 'A'}`)).toBeUndefined();
    store.close();
  });

  it('reopened, goes on after the rows it has, whether or not a version was kept', () => {
    const file = tempDb();
    const insertCustomer = (store: Store) => store.db.transaction(() => store.objects.insert('acct_a', { id: store.objects.newId('customer'), object: 'customer', created: '2030-01-01T00:00:00Z', livemode: false }));
    let store = new Store(file);
    store.db.transaction(() => store.accounts.upsert({ id: 'acct_a', apiKey: 'sk_test_a', clockNow: '2030-01-01T00:00:00Z' }));
    const first = insertCustomer(store);
    store.db.transaction(() => store.events.append('acct_a', 'customer.created', first, '2030-01-01T00:00:00Z'));
    store.close();
    store = new Store(file);
    const second = insertCustomer(store);
    store.db.transaction(() => store.events.append('acct_a', 'customer.created', second, '2030-01-01T00:00:00Z'));
    store.db.transaction(() => store.objects.remove('acct_a', 'customer', second.id));
    store.close();
    store = new Store(file);
    const third = insertCustomer(store);
    expect(store.objects.list('acct_a', 'customer', { limit: 10 }).data.map((c) => c.id)).toEqual([third.id, first.id]);
    expect(store.events.latest('acct_a').seq).toBe(2);
    store.close();
  });

  it('keeps objects read for the next read, never a version that rolled back or was replaced', () => {
    const store = new Store(':memory:');
    store.db.transaction(() => store.accounts.upsert({ id: 'acct_a', apiKey: 'sk_test_a', clockNow: '2030-01-01T00:00:00Z' }));
    store.db.transaction(() => store.accounts.upsert({ id: 'acct_b', apiKey: 'sk_test_b', clockNow: '2030-01-01T00:00:00Z' }));
    const customer = store.db.transaction(() => store.objects.insert('acct_a', { id: store.objects.newId('customer'), object: 'customer', created: '2030-01-01T00:00:00Z', livemode: false, email: 'a@example.com' } as BaseObject));
    const email = () => (store.objects.find('acct_a', 'customer', customer.id) as unknown as { email: string }).email;
    expect(email()).toBe('a@example.com');
    expect(() => store.db.transaction(() => {
      store.objects.update('acct_a', { ...customer, email: 'gone@example.com' } as BaseObject);
      expect(email()).toBe('gone@example.com');
      throw new Error('roll back');
    })).toThrow('roll back');
    expect(email()).toBe('a@example.com');
    // Read inside a transaction, replaced later in it: what commits is the replacement.
    store.db.transaction(() => {
      expect(email()).toBe('a@example.com');
      store.objects.update('acct_a', { ...customer, email: 'b@example.com' } as BaseObject);
    });
    expect(email()).toBe('b@example.com');
    expect(store.objects.find('acct_b', 'customer', customer.id)).toBeUndefined();
    expect(store.objects.find('acct_a', 'payment_intent', customer.id)).toBeUndefined();
    store.close();
  });

  it('an event names the version it shows, also once the object changed', () => {
    const store = new Store(':memory:');
    store.db.transaction(() => store.accounts.upsert({ id: 'acct_a', apiKey: 'sk_test_a', clockNow: '2030-01-01T00:00:00Z' }));
    const first = store.db.transaction(() => store.objects.insert('acct_a', { id: store.objects.newId('customer'), object: 'customer', created: '2030-01-01T00:00:00Z', livemode: false, email: 'a@example.com' } as BaseObject));
    const created = store.db.transaction(() => store.events.append('acct_a', 'customer.created', first, '2030-01-01T00:00:00Z'));
    store.db.transaction(() => store.objects.update('acct_a', { ...first, email: 'b@example.com' } as BaseObject));
    expect(store.events.find('acct_a', created.id)?.data.object).toEqual(first);
    expect(store.db.get<{ n: number }>('SELECT count(*) AS n FROM events WHERE object_seq IS NULL')!.n).toBe(0);
    // Written objects are frozen: what an event names cannot change under it.
    expect(() => {
      (first as unknown as Record<string, unknown>).email = 'c@example.com';
    }).toThrow(TypeError);
    store.close();
  });

  it('writes an object created and changed by one request once, keeping the version it replaced as an update does', () => {
    const store = new Store(':memory:');
    store.db.transaction(() => store.accounts.upsert({ id: 'acct_a', apiKey: 'sk_test_a', clockNow: '2030-01-01T00:00:00Z' }));
    const rowsOf = (seq: number) => ({
      object: store.db.get('SELECT version, status, data FROM objects WHERE seq = ?', seq),
      versions: store.db.all('SELECT version, data FROM object_versions WHERE object_seq = ? ORDER BY version', seq),
    });
    const base = { object: 'payment_intent', created: '2030-01-01T00:00:00Z', livemode: false };
    // As a request finds them: the account's key and the object's shape known (a read writes what is held).
    store.db.transaction(() => store.objects.insert('acct_a', { ...base, id: store.objects.newId('payment_intent'), status: 'warm' } as BaseObject));
    // Both ways: changed while its row is held, and changed once written (migration 6's trigger keeps the old version).
    const [held, written] = [false, true].map((flush) => store.db.transaction(() => {
      const first = store.objects.insert('acct_a', { ...base, id: store.objects.newId('payment_intent'), status: 'requires_confirmation' } as BaseObject);
      const created = store.events.append('acct_a', 'payment_intent.created', first, base.created);
      if (flush) store.db.get('SELECT 1');
      const second = store.objects.update('acct_a', { ...first, status: 'processing' } as BaseObject);
      const third = store.objects.update('acct_a', { ...second, status: 'succeeded' } as BaseObject);
      return { seq: rowOf(first.id), created, first, third };
    }));
    for (const { created, first, third } of [held!, written!]) {
      expect(store.events.find('acct_a', created.id)?.data.object).toEqual(first);
      expect(store.objects.find('acct_a', 'payment_intent', third.id)).toEqual(third);
    }
    const shape = ({ object, versions }: ReturnType<typeof rowsOf>) => ({ object: { ...object, data: undefined }, versions: versions.map((v) => v.version) });
    expect(shape(rowsOf(held!.seq))).toEqual({ object: { version: 3, status: 'succeeded', data: undefined }, versions: [1, 2] });
    expect(shape(rowsOf(held!.seq))).toEqual(shape(rowsOf(written!.seq)));
    store.close();
  });

  it('serialises a version it wrote or read once, and each new version anew', () => {
    const store = new Store(':memory:');
    store.db.transaction(() => store.accounts.upsert({ id: 'acct_a', apiKey: 'sk_test_a', clockNow: '2030-01-01T00:00:00Z' }));
    const first = store.db.transaction(() => store.objects.insert('acct_a', { id: store.objects.newId('customer'), object: 'customer', created: '2030-01-01T00:00:00Z', livemode: false, email: 'a@example.com' } as BaseObject));
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      expect(store.objects.jsonOf(first)).toBe(JSON.stringify(first));
      stringify.mockClear();
      expect(store.objects.jsonOf(first)).toBe(JSON.stringify(first));
      expect(stringify).toHaveBeenCalledTimes(1); // the comparison's own
      const second = store.db.transaction(() => store.objects.update('acct_a', { ...first, email: 'b@example.com' } as BaseObject));
      expect(JSON.parse(store.objects.jsonOf(second)).email).toBe('b@example.com');
      expect(JSON.parse(store.objects.jsonOf(store.objects.find('acct_a', 'customer', first.id))).email).toBe('b@example.com');
      // Anything else is serialised as it is now.
      const list = { object: 'list', data: [second] };
      expect(store.objects.jsonOf(list)).toBe(JSON.stringify(list));
    } finally {
      stringify.mockRestore();
      store.close();
    }
  });

  it('migrates a database of schema 5: old ids, events, versions and stored responses read as before', () => {
    const file = tempDb();
    const old = new DatabaseSync(file);
    for (const sql of MIGRATIONS.slice(0, 5)) old.exec(sql);
    old.exec('PRAGMA user_version = 5');
    const customer = { id: 'cus_OLDoldOLDoldOLDoldOLDold', object: 'customer', created: '2030-01-01T00:00:00Z', livemode: false, email: 'old@example.com' };
    const changed = { ...customer, email: 'new@example.com' };
    old.prepare("INSERT INTO accounts (id, api_key_hash, clock_now, created) VALUES ('acct_old', 'hash', '2030-01-01T00:00:00Z', '2030-01-01T00:00:00Z')").run();
    old.prepare("INSERT INTO objects (id, account, kind, data, version) VALUES (?, 'acct_old', 'customer', ?, 2)").run(customer.id, JSON.stringify(changed));
    old.prepare("INSERT INTO object_versions (object_seq, version, account, data) VALUES (1, 1, 'acct_old', ?)").run(JSON.stringify(customer));
    old.prepare("INSERT INTO events (id, account, type, created, data, object_seq, version) VALUES ('evt_OLDoldOLDoldOLDoldOLDold', 'acct_old', 'customer.created', '2030-01-01T00:00:00Z', '{}', 1, 1)").run();
    old.prepare("INSERT INTO idempotency (account, key, method, path, body_hash, status, response, created, object_seq, version) VALUES ('acct_old', 'k1', 'POST', '/v1/customers', 'mac', 200, '', '2030-01-01T00:00:00Z', 1, 1)").run();
    old.close();
    // The key file an upgraded sandbox already had (a new one would drop the stored responses).
    SandboxKeys.open(file);

    const store = new Store(file);
    expect(store.objects.find('acct_old', 'customer', customer.id)).toEqual(changed);
    expect(store.events.find('acct_old', 'evt_OLDoldOLDoldOLDoldOLDold')?.data.object).toEqual(customer);
    expect(store.idempotency.find('acct_old', 'k1')?.response).toBe(JSON.stringify(customer));
    expect(store.objects.list('acct_old', 'customer', { limit: 10, filters: { email: 'new@example.com' } }).data).toEqual([changed]);
    // New rows go after the old ones, and the old object can still change.
    store.db.transaction(() => store.objects.update('acct_old', { ...changed, email: 'newer@example.com' } as BaseObject));
    const next = store.db.transaction(() => store.objects.insert('acct_old', { id: store.objects.newId('customer'), object: 'customer', created: '2030-01-02T00:00:00Z', livemode: false }));
    expect(store.objects.list('acct_old', 'customer', { limit: 10 }).data.map((c) => c.id)).toEqual([next.id, customer.id]);
    expect(store.objects.list('acct_old', 'customer', { limit: 10, starting_after: next.id }).data.map((c) => c.id)).toEqual([customer.id]);
    store.close();
  });
});

describe('the indexes of objects', () => {
  it('are each read by a query the store makes: every write pays for every index', () => {
    const store = new Store(':memory:');
    const { db } = store;
    store.db.transaction(() => store.accounts.upsert({ id: 'acct_a', apiKey: 'sk_test_a', clockNow: '2030-01-01T00:00:00Z' }));
    const customer = store.db.transaction(() => store.objects.insert('acct_a', { id: store.objects.newId('customer'), object: 'customer', created: '2030-01-01T00:00:00Z', livemode: false }));
    // Every query the store reads objects with, as it makes them, with the values it binds.
    const queries: Array<[string, unknown[]]> = [];
    for (const method of ['get', 'all', 'iterate'] as const) {
      const original = db[method].bind(db) as (sql: string, ...params: unknown[]) => unknown;
      vi.spyOn(db, method).mockImplementation(((sql: string, ...params: unknown[]) => {
        if (/FROM objects\b/.test(sql)) queries.push([sql, params]);
        return original(sql, ...params);
      }) as never);
    }
    for (const filters of [{}, { status: 'past_due' }, { customer_id: customer.id }, { subscription_id: 'sub_x' }, { payment_intent_id: 'pi_x' }]) {
      store.objects.list('acct_a', 'subscription', { limit: 10, filters });
    }
    store.billing.nextPaymentAt('acct_a');
    store.billing.nextCancelAt('acct_a');
    store.billing.paymentsDue('acct_a', '2030-02-01T00:00:00Z');
    store.billing.cancelsDue('acct_a', '2030-02-01');
    vi.restoreAllMocks();

    const used = new Set<string>();
    for (const [sql, params] of queries) {
      for (const { detail } of db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, ...(params as never[]))) {
        const index = /USING (?:COVERING )?INDEX (\w+)/.exec(detail)?.[1];
        if (index) used.add(index);
      }
    }
    const indexes = db.all<{ name: string; origin: string }>('PRAGMA index_list(objects)').filter((index) => index.origin === 'c').map((index) => index.name);
    expect(indexes.length).toBeGreaterThan(0);
    expect(indexes.filter((index) => !used.has(index))).toEqual([]);
    store.close();
  });
});
