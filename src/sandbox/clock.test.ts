import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualScheduler } from '../../test/support/manual-scheduler.js';
import { addDays, dueInstant } from '../domain/schedule.js';
import { realScheduler } from '../infra/time.js';
import { TestClock } from './clock.js';
import { NO_SINKS, ServiceContext } from './services/context.js';
import type { DueWork } from './services/due-work.js';
import { ReaderConnections } from './services/reader-links.js';
import type { Account } from './store/accounts.js';
import { Store } from './store/index.js';

/** Due work over a fixed list of instants, remembering when each ran and at what step. */
class ListedWork implements DueWork {
  readonly ran: Array<{ due: string; at: string }> = [];
  private readonly pending: string[];
  constructor(due: string[]) {
    this.pending = [...due];
  }
  nextDue(): string | undefined {
    return this.pending[0];
  }
  run(ctx: ServiceContext): void {
    while (this.pending[0] !== undefined && Date.parse(this.pending[0]) <= Date.parse(ctx.now)) {
      this.ran.push({ due: this.pending.shift()!, at: ctx.now });
    }
  }
}

let store: Store;
let clock: TestClock;
let account: Account;
const ctxFor = (now: string) => new ServiceContext(store, account, now, { readers: new ReaderConnections(), sinks: NO_SINKS, scheduler: realScheduler });

beforeEach(() => {
  store = new Store(':memory:');
  clock = new TestClock(store);
  account = store.db.transaction(() => store.accounts.upsert({ apiKey: 'sk_test_clock_unit_test_key', clockNow: '2030-01-01T00:00:00Z' }));
});
afterEach(() => store.close());

describe('TestClock.advance', () => {
  it('runs each due instant at that instant, in order, across works', async () => {
    const a = new ListedWork(['2030-01-03T00:00:00Z', '2030-01-10T00:00:00Z']);
    const b = new ListedWork(['2030-01-05T00:00:00Z', '2030-02-01T00:00:00Z']);
    clock.register(a);
    clock.register(b);
    await clock.advance(ctxFor, '2030-01-20T12:00:00Z');
    expect(a.ran).toEqual([
      { due: '2030-01-03T00:00:00Z', at: '2030-01-03T00:00:00Z' },
      { due: '2030-01-10T00:00:00Z', at: '2030-01-10T00:00:00Z' },
    ]);
    expect(b.ran).toEqual([{ due: '2030-01-05T00:00:00Z', at: '2030-01-05T00:00:00Z' }]);
    expect(clock.now(account.id)).toBe('2030-01-20T12:00:00Z');
  });

  it('runs work already overdue at once, at the current instant', async () => {
    store.accounts.setClockNow(account.id, '2030-01-01T09:30:00Z');
    const work = new ListedWork(['2030-01-01T00:00:00Z', '2030-01-02T00:00:00Z']);
    clock.register(work);
    await clock.advance(ctxFor, '2030-01-01T09:30:00Z');
    expect(work.ran).toEqual([{ due: '2030-01-01T00:00:00Z', at: '2030-01-01T09:30:00Z' }]);
    await clock.advance(ctxFor, '2030-01-03T00:00:00Z');
    expect(work.ran.at(-1)).toEqual({ due: '2030-01-02T00:00:00Z', at: '2030-01-02T00:00:00Z' });
  });

  it('refuses to go backwards and changes nothing', async () => {
    const work = new ListedWork(['2030-01-02T00:00:00Z']);
    clock.register(work);
    await expect(clock.advance(ctxFor, '2029-12-31T00:00:00Z')).rejects.toThrow(/cannot go backwards/);
    expect(work.ran).toEqual([]);
    expect(clock.now(account.id)).toBe('2030-01-01T00:00:00Z');
  });

  it('commits each step with its clock move, so a failure keeps the steps before it, even within one batch', async () => {
    // Time standing still: the steps would all share one transaction, so the batch's steps
    // run again one per transaction. The work keeps its state in the database, as real work does.
    clock = new TestClock(store, new ManualScheduler(0));
    const days = Array.from({ length: 5 }, (_, i) => dueInstant(addDays('2030-01-02', i)));
    clock.register({
      nextDue: (ctx) => days.find((day) => Date.parse(day) > Date.parse(ctx.now)),
      run: (ctx) => {
        if (ctx.now === days[3]) throw new Error('crash at the fourth step');
        store.objects.insert(account.id, { id: store.objects.newId('customer'), object: 'customer', created: ctx.now, livemode: false });
      },
    });
    await expect(clock.advance(ctxFor, '2030-02-01T00:00:00Z')).rejects.toThrow(/fourth step/);
    expect(clock.now(account.id)).toBe(days[2]);
    expect(store.objects.list(account.id, 'customer', { limit: 10 }).data.map((c) => c.created)).toEqual(days.slice(0, 3).reverse());
  });

  it('shares a transaction between steps until batchMs of real time has passed, then commits', async () => {
    const time = new ManualScheduler(0);
    clock = new TestClock(store, time, 100);
    const days = Array.from({ length: 7 }, (_, i) => dueInstant(addDays('2030-01-02', i)));
    const work = new ListedWork(days);
    clock.register(work);
    // Each step takes 40 ms: three fit in a batch of 100 ms (the third ends past it).
    const stepsRunAtCommit: number[] = [];
    clock.register({
      nextDue: () => undefined,
      run: (ctx) => {
        time.advance(40);
        ctx.afterCommit(() => stepsRunAtCommit.push(work.ran.length));
      },
    });
    await clock.advance(ctxFor, '2030-01-08T00:00:00Z');
    expect(stepsRunAtCommit).toEqual([3, 3, 3, 6, 6, 6, 7]);
    expect(work.ran.map((r) => r.at)).toEqual(days);
  });

  it('answers other work between its batches, and refuses a second advance of the same account meanwhile', async () => {
    // A batch of 0 ms: every step commits and yields.
    clock = new TestClock(store, realScheduler, 0);
    const days = Array.from({ length: 20 }, (_, i) => dueInstant(addDays('2030-01-02', i)));
    clock.register(new ListedWork(days));
    const first = clock.advance(ctxFor, '2030-02-01T00:00:00Z');
    // Queued behind the advance's first yield: it runs between two steps only if the
    // advance gives way (setImmediate callbacks run in order, whatever the machine's speed).
    let seenMidway: string | undefined;
    setImmediate(() => (seenMidway = clock.now(account.id)));
    await expect(clock.advance(ctxFor, '2030-01-10T00:00:00Z')).rejects.toThrow(/already being advanced/);
    await first;
    expect(seenMidway).toBeDefined();
    expect(Date.parse(seenMidway!)).toBeLessThan(Date.parse('2030-02-01T00:00:00Z'));
    expect(clock.now(account.id)).toBe('2030-02-01T00:00:00Z');
    // Once finished, the account's clock can be advanced again.
    await clock.advance(ctxFor, '2030-02-02T00:00:00Z');
    expect(clock.now(account.id)).toBe('2030-02-02T00:00:00Z');
  });

  it('stops instead of looping when due work does not complete', async () => {
    clock.register({ nextDue: () => '2030-01-01T00:00:00Z', run: () => {} });
    await expect(clock.advance(ctxFor, '2030-01-05T00:00:00Z')).rejects.toThrow(/did not complete/);
  });
});
