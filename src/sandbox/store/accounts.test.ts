import { describe, expect, it } from 'vitest';
import { Database } from './db.js';
import { AccountStore } from './accounts.js';

const abort = new Error('roll back');
const rollingBack = (db: Database, fn: () => void) => expect(() => db.transaction(() => { fn(); throw abort; })).toThrow(abort);

describe('accounts read on every request (by key, and their clock)', () => {
  it('never keep what a transaction read and then rolled back', () => {
    const db = new Database(':memory:');
    const accounts = new AccountStore(db);
    rollingBack(db, () => {
      accounts.upsert({ id: 'acct_gone', apiKey: 'sk_test_gone', clockNow: '2030-01-01T00:00:00Z' });
      expect(accounts.byKey('sk_test_gone')).toEqual({ id: 'acct_gone' });
    });
    expect(accounts.byKey('sk_test_gone')).toBeUndefined();

    db.transaction(() => accounts.upsert({ id: 'acct_a', apiKey: 'sk_test_a', clockNow: '2030-01-01T00:00:00Z' }));
    expect(accounts.clockNow('acct_a')).toBe('2030-01-01T00:00:00Z');
    rollingBack(db, () => {
      accounts.setClockNow('acct_a', '2031-01-01T00:00:00Z');
      expect(accounts.clockNow('acct_a')).toBe('2031-01-01T00:00:00Z');
    });
    expect(accounts.clockNow('acct_a')).toBe('2030-01-01T00:00:00Z');
    db.close();
  });

  it('follow a committed change: a new clock, a new key (the old one stops working)', () => {
    const db = new Database(':memory:');
    const accounts = new AccountStore(db);
    db.transaction(() => accounts.upsert({ id: 'acct_a', apiKey: 'sk_test_old', clockNow: '2030-01-01T00:00:00Z' }));
    expect(accounts.byKey('sk_test_old')).toEqual({ id: 'acct_a' });
    expect(accounts.clockNow('acct_a')).toBe('2030-01-01T00:00:00Z');
    db.transaction(() => {
      accounts.upsert({ id: 'acct_a', apiKey: 'sk_test_new', clockNow: '2030-01-01T00:00:00Z' });
      accounts.setClockNow('acct_a', '2030-06-01T00:00:00Z');
    });
    expect(accounts.byKey('sk_test_old')).toBeUndefined();
    expect(accounts.byKey('sk_test_new')).toEqual({ id: 'acct_a' });
    expect(accounts.clockNow('acct_a')).toBe('2030-06-01T00:00:00Z');
    db.close();
  });
});
