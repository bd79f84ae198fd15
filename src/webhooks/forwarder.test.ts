import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { Receiver } from '../../test/support/receiver.js';
import { testSandboxes, type TestSandbox } from '../../test/support/sandboxes.js';
import { until } from '../../test/support/wait.js';
import type { Event } from '../domain/events.js';
import { acquireLock } from '../infra/pid-lock.js';
import { ListenerRunningError } from './errors.js';
import { classify, type DeliveryResult, Forwarder, type ListenSink, targetsOf } from './forwarder.js';
import { pendingOf, type Received, Spool } from './spool.js';

/** Keeps each event for its targets, and moves the cursor to the newest in log order (as listen spools what it received). */
const keep = (spool: Spool, batch: Received[]) => spool.keep(batch.flatMap((received) => received.targets.map((target) => pendingOf(received, target))), batch.findLast((received) => received.inOrder)?.event.id);

describe('targetsOf', () => {
  const routing = {
    forwardTo: ['http://a/all', 'http://b/all'],
    routes: [
      { pattern: 'subscription.*', url: 'http://a/subs' },
      { pattern: 'subscription.created', url: 'http://c/new' },
      { pattern: 'charge.refunded', url: 'http://a/subs' },
    ],
  };

  it('sends a routed type to its routes only, anything else to every --forward-to', () => {
    expect(targetsOf(routing, 'subscription.created')).toEqual(['http://a/subs', 'http://c/new']);
    expect(targetsOf(routing, 'subscription.updated')).toEqual(['http://a/subs']);
    expect(targetsOf(routing, 'charge.refunded')).toEqual(['http://a/subs']);
    expect(targetsOf(routing, 'customer.created')).toEqual(['http://a/all', 'http://b/all']);
    expect(targetsOf({ forwardTo: [], routes: routing.routes }, 'customer.created')).toEqual([]);
  });
});

describe('classify', () => {
  it('tells delivered, refused for good, worth retrying and app down apart', () => {
    expect(classify(200, null)).toBe('delivered');
    expect(classify(204, null)).toBe('delivered');
    expect(classify(400, null)).toBe('rejected');
    expect(classify(404, null)).toBe('rejected');
    expect(classify(410, null)).toBe('rejected');
    for (const status of [408, 425, 429, 500, 501]) expect(classify(status, null), String(status)).toBe('retrying');
    expect(classify(null, 'timeout')).toBe('retrying');
    for (const status of [502, 503, 504]) expect(classify(status, null), String(status)).toBe('app_down');
    expect(classify(null, 'ECONNREFUSED')).toBe('app_down');
    expect(classify(301, null)).toBe('retrying');
  });
});

describe('Spool', () => {
  const event = (id: string): Event => ({ id, object: 'event', type: 'customer.created', created: '2030-01-01T00:00:00Z', livemode: false, data: { object: { id: 'cus_1', object: 'customer', created: '', livemode: false } } });
  const received = (id: string, targets: string[], inOrder: boolean) => ({ event: event(id), payload: JSON.stringify(event(id)), targets, inOrder });

  it('keeps events per target in order until each target is done, across reopening', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pay-spool-'));
    try {
      const file = join(dir, 'listen', 'lsn_test.db');
      let spool = new Spool(file);
      const ids = (pending: Array<{ event: Event }>) => pending.map((p) => p.event.id);
      expect(ids(keep(spool, [received('evt_1', ['a', 'b'], true)]))).toEqual(['evt_1', 'evt_1']);
      const added = keep(spool, [
        received('evt_2', ['a'], true),
        received('evt_1', ['a', 'b'], false), // a resend while still waiting: not doubled
        received('evt_0', ['a'], false), // a resend of an old event leaves the cursor
      ]);
      expect(ids(added)).toEqual(['evt_2', 'evt_0']);
      expect(added[0]).toMatchObject({ target: 'a', payload: JSON.stringify(event('evt_2')), attempts: 0, firstAttemptAt: null, nextAttemptAt: 0 });
      expect(spool.cursor).toBe('evt_2');
      expect(spool.count()).toBe(3);
      const [first, ...rest] = spool.load('a', 0, 5);
      expect(ids([first!, ...rest])).toEqual(['evt_1', 'evt_2', 'evt_0']);
      expect(ids(spool.load('a', first!.seq, 1))).toEqual(['evt_2']); // after a position, up to a limit
      spool.retry(first!, 1_000, 60_000);
      expect(first).toMatchObject({ attempts: 1, firstAttemptAt: 1_000, nextAttemptAt: 60_000 });
      spool.close();

      spool = new Spool(file);
      expect(spool.cursor).toBe('evt_2');
      const [later, second] = spool.load('a', 0, 2);
      expect(later).toMatchObject({ seq: first!.seq, attempts: 1, firstAttemptAt: 1_000, nextAttemptAt: 60_000 });
      // b still waits for evt_1; evt_2 had a alone
      const [forB] = spool.load('b', 0, 5);
      expect(spool.done([later!])).toEqual([]);
      expect(spool.done([forB!, second!])).toEqual(['evt_1', 'evt_2']);
      expect(spool.count('a')).toBe(1);
      expect(spool.count('b')).toBe(0);
      spool.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Forwarder', () => {
  it('of two started on one spool at the same moment, one runs and the other is refused naming its pid', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pay-spool-'));
    const spoolFile = join(dir, 'listen', 'lsn_test.db');
    const quiet: ListenSink = { ready() {}, event() {}, delivery() {}, connection() {}, notice() {}, warning() {} };
    // Nothing answers there: the one that runs keeps reconnecting until stopped.
    const forwarder = () =>
      new Forwarder({ baseUrl: 'http://127.0.0.1:9', headers: {}, listenerId: 'lsn_test1234', secret: 'whsec_test', spoolFile, routing: { forwardTo: ['http://127.0.0.1:9/hook'], routes: [] }, forwardHeaders: {}, timeoutMs: 1_000, skipVerify: false, sink: quiet });
    const both = [forwarder(), forwarder()];
    try {
      const runs = both.map((f) => f.run().then(() => 'ended', (error: unknown) => error));
      const refused = await Promise.race(runs);
      expect(refused).toBeInstanceOf(ListenerRunningError);
      expect((refused as ListenerRunningError).message).toBe(`Another pay webhooks listen for this profile is running (pid ${process.pid}): stop it first, or use another profile.`);
      expect(existsSync(`${spoolFile}.lock`)).toBe(true);
      await Promise.all(both.map((f) => f.stop()));
      expect(await Promise.all(runs)).toContain('ended');
      expect(existsSync(`${spoolFile}.lock`)).toBe(false);
    } finally {
      await Promise.all(both.map((f) => f.stop()));
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refused, never opens the spool: two first listens creating it at once made one fail with "database is locked"', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pay-spool-'));
    const spoolFile = join(dir, 'listen', 'lsn_test.db');
    mkdirSync(dirname(spoolFile));
    const release = await acquireLock(`${spoolFile}.lock`);
    const quiet: ListenSink = { ready() {}, event() {}, delivery() {}, connection() {}, notice() {}, warning() {} };
    const forwarder = new Forwarder({ baseUrl: 'http://127.0.0.1:9', headers: {}, listenerId: 'lsn_test1234', secret: 'whsec_test', spoolFile, routing: { forwardTo: ['http://127.0.0.1:9/hook'], routes: [] }, forwardHeaders: {}, timeoutMs: 1_000, skipVerify: false, sink: quiet });
    try {
      await expect(forwarder.run()).rejects.toBeInstanceOf(ListenerRunningError);
      expect(await forwarder.stop()).toBe(0);
      expect(existsSync(spoolFile)).toBe(false);
    } finally {
      await release();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Forwarder with a window of deliveries in flight', () => {
  const { sandbox, later } = testSandboxes();
  const customers = async (sb: TestSandbox, n: number) => {
    for (let i = 0; i < n; i++) expect((await sb.call('POST', '/v1/customers', {})).status).toBe(200);
  };

  /** A forwarder of the sandbox's account to the app, on a spool of its own; resolves once it is ready. */
  async function forwarding(sb: TestSandbox, app: Receiver, spoolFile: string, onDelivery?: (result: DeliveryResult) => void, from?: string, timeoutMs = 30_000) {
    const deliveries: DeliveryResult[] = [];
    const said: string[] = [];
    let ready!: () => void;
    const isReady = new Promise<void>((resolve) => (ready = resolve));
    const sink: ListenSink = { ready: () => ready(), event() {}, delivery: (result) => {
      deliveries.push(result);
      onDelivery?.(result);
    }, connection: (_change, text) => void said.push(text), notice: (text) => void said.push(text), warning: (text) => void said.push(`! ${text}`) };
    const forwarder = new Forwarder({ baseUrl: sb.baseUrl, headers: sb.headers, listenerId: 'lsn_window1234', secret: 'whsec_dGVzdHNlY3JldHRlc3RzZWNyZXQ=', spoolFile, routing: { forwardTo: [app.url()], routes: [] }, from, forwardHeaders: {}, timeoutMs, skipVerify: false, sink });
    const run = forwarder.run();
    later(async () => {
      await forwarder.stop();
      await run;
    });
    await isReady;
    return { forwarder, deliveries, run, said };
  }

  /** What the spool holds, as another process would read it: its rows, and its cursor. */
  const onDisk = (spoolFile: string) => {
    const db = new DatabaseSync(spoolFile, { readOnly: true });
    try {
      const rows = db.prepare('SELECT event_id FROM pending ORDER BY seq').all().map((row) => row.event_id);
      const cursor = db.prepare("SELECT value FROM state WHERE key = 'cursor'").get()?.value;
      return { rows, cursor };
    } finally {
      db.close();
    }
  };

  const spoolIn = () => {
    const dir = mkdtempSync(join(tmpdir(), 'pay-spool-'));
    later(() => rmSync(dir, { recursive: true, force: true }));
    return join(dir, 'listen', 'lsn_window1234.db');
  };

  const app = async () => {
    const receiver = await new Receiver().start();
    later(() => receiver.stop());
    return receiver;
  };

  /** The app holds its answer to each request `held` picks (by how many it received) until release(); most(): the most it had at once. */
  const holding = (receiver: Receiver, held: (received: number) => boolean) => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let inFlight = 0;
    let most = 0;
    receiver.respond = async () => {
      most = Math.max(most, ++inFlight);
      if (held(receiver.received.length)) await released;
      inFlight--;
      return 200;
    };
    return { release, most: () => most };
  };

  it('keeps 16 deliveries in flight and acknowledges each event only once the app answered it 2xx', async () => {
    const sb = await sandbox();
    const receiver = await app();
    // The app holds its answer to the first 15 events until told; it answers the rest at once.
    const { release, most } = holding(receiver, (n) => n <= 15);
    const { forwarder } = await forwarding(sb, receiver, spoolIn());
    await customers(sb, 20);
    // Five answered (one slot of the window, while fifteen are held): exactly those are acknowledged.
    await until(() => forwarder.settled, (n) => n === 5, 'the five answered events acknowledged');
    expect(receiver.received).toHaveLength(20);
    expect(most()).toBe(16);
    expect(forwarder.settled).toBe(5);
    release();
    await until(() => forwarder.settled, (n) => n === 20, 'every event acknowledged');
    expect(receiver.ids().size).toBe(20);
    expect(receiver.received).toHaveLength(20);
  });

  it('widens the window to 64 for an app that answers at once, and no further', async () => {
    const sb = await sandbox();
    const receiver = await app();
    // The first 60 answered at once (each one widens the window by one, from 16); then every answer is held.
    const { release, most } = holding(receiver, (n) => n > 60);
    const spoolFile = spoolIn();
    const { forwarder } = await forwarding(sb, receiver, spoolFile);
    await customers(sb, 60);
    await until(() => forwarder.settled, (n) => n === 60, 'the first 60 events acknowledged');
    await customers(sb, 70);
    await until(() => receiver.received.length, (n) => n === 60 + 64, 'a window of 64 in flight');
    // Every event is in memory by now; none more goes out while the 64 are held.
    await until(() => onDisk(spoolFile).rows.length, (n) => n === 70, 'the held events spooled', 5_000);
    expect(receiver.received).toHaveLength(60 + 64);
    expect(most()).toBe(64);
    release();
    await until(() => forwarder.settled, (n) => n === 130, 'every event acknowledged');
    expect(receiver.ids().size).toBe(130);
  });

  it('narrows the window for an app that answers one event at a time, so none waits there long enough to time out', async () => {
    const sb = await sandbox();
    const receiver = await app();
    const seen: number[] = []; // events waiting at the app (its own included) as each request arrived
    let waiting = 0;
    let queue: Promise<unknown> = Promise.resolve();
    // 100 ms an event, one at a time: the first round trip's 16 wait up to 1.5 s at it, more
    // than an eighth of the 2 s timeout; each later round trip halves the window again.
    receiver.respond = () => {
      seen.push(++waiting);
      const answered = queue.then(() => new Promise((resolve) => setTimeout(resolve, 100)));
      queue = answered;
      return answered.then(() => {
        waiting--;
        return 200;
      });
    };
    const { forwarder } = await forwarding(sb, receiver, spoolIn(), undefined, undefined, 2_000);
    await customers(sb, 50);
    await until(() => forwarder.settled, (n) => n === 50, 'every event acknowledged', 30_000);
    expect(Math.max(...seen)).toBeGreaterThanOrEqual(16);
    // In the end a few at a time: none waits more than about an eighth of the timeout.
    expect(Math.max(...seen.slice(-10))).toBeLessThanOrEqual(4);
    expect(receiver.ids().size).toBe(50);
    expect(receiver.received).toHaveLength(50);
  });

  it('keeps the window of an app slow at every event but answering many at once', async () => {
    const sb = await sandbox();
    const receiver = await app();
    let inFlight = 0;
    const seen: number[] = [];
    // 400 ms each, above an eighth of the 2 s timeout, whatever else is in flight: the window is not what makes it slow.
    receiver.respond = async () => {
      seen.push(++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 400));
      inFlight--;
      return 200;
    };
    const { forwarder } = await forwarding(sb, receiver, spoolIn(), undefined, undefined, 2_000);
    await customers(sb, 16);
    await until(() => forwarder.settled, (n) => n === 16, 'the first 16 acknowledged', 10_000);
    // The 16 answers widened it to 32: a burst goes out at once.
    await customers(sb, 32);
    await until(() => forwarder.settled, (n) => n === 48, 'the burst acknowledged', 10_000);
    expect(Math.max(...seen.slice(16))).toBe(32);
  });

  it('resumes after an account reset erased its cursor, saying how many events were logged since in words', async () => {
    const sb = await sandbox();
    const receiver = await app();
    const spoolFile = spoolIn();
    const first = await forwarding(sb, receiver, spoolFile);
    await customers(sb, 1);
    await until(() => first.forwarder.settled, (n) => n === 1, 'the first event acknowledged');
    await first.forwarder.stop();
    await first.run;
    expect((await sb.call('POST', '/v1/test-helpers/reset', {})).status).toBe(200);
    await customers(sb, 1);
    const second = await forwarding(sb, receiver, spoolFile);
    await until(() => second.forwarder.settled, (n) => n === 1, 'the event logged since the reset acknowledged');
    expect(second.said).toContain('! The service no longer has the event this listener stopped at (was the account reset?): delivering the event logged after it.');
    await second.forwarder.stop();
    await second.run;
    expect((await sb.call('POST', '/v1/test-helpers/reset', {})).status).toBe(200);
    const third = await forwarding(sb, receiver, spoolFile);
    expect(third.said).toContain('! The service no longer has the event this listener stopped at (was the account reset?): nothing was logged after it.');
  });

  it('spools nothing the app takes at once, never moves the cursor past an event it has not, and spools one it holds past a second', async () => {
    const sb = await sandbox();
    const receiver = await app();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    receiver.respond = async () => {
      if (receiver.received.length <= 3) await released;
      return 200;
    };
    const spoolFile = spoolIn();
    await customers(sb, 1); // before it: where its first run starts, and its spool's cursor
    const start = (await sb.events()).at(-1)!.id;
    const { forwarder } = await forwarding(sb, receiver, spoolFile);
    expect(onDisk(spoolFile).cursor).toBe(start);
    await customers(sb, 3);
    await until(() => receiver.received.length, (n) => n === 3, 'three deliveries held by the app');
    const held = (await sb.events()).slice(-3).map((event) => event.id); // oldest first
    // In flight and not spooled: a listen killed now gets them again from the log, after the cursor.
    expect(onDisk(spoolFile)).toEqual({ rows: [], cursor: start });
    await until(() => onDisk(spoolFile), (disk) => disk.rows.length === 3, 'the held events spooled', 5_000);
    expect(onDisk(spoolFile)).toEqual({ rows: held, cursor: held[2] });
    release();
    await until(() => forwarder.settled, (n) => n === 3, 'the held events acknowledged');
    expect(onDisk(spoolFile)).toEqual({ rows: [], cursor: held[2] });
    // Taken at once: settled without a row, the cursor after the newest.
    await customers(sb, 5);
    await until(() => forwarder.settled, (n) => n === 8, 'five more acknowledged');
    const newest = (await sb.events()).at(-1)!.id;
    await until(() => onDisk(spoolFile), (disk) => disk.cursor === newest, 'the cursor after the newest');
    expect(onDisk(spoolFile).rows).toEqual([]);
  });

  it('lets the service\'s cursor pass no event it still holds in memory while its spool has no cursor yet: a first run from the start of the log', async () => {
    const sb = await sandbox(); // its log is empty: this run starts from the start of it, a cursor of nothing
    const receiver = await app();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    later(() => release());
    // The app holds its answer to the first event; it takes the others at once.
    receiver.respond = async (request) => {
      if (receiver.received.indexOf(request) === 0) await released;
      return 200;
    };
    const spoolFile = spoolIn();
    await forwarding(sb, receiver, spoolFile);
    await customers(sb, 3);
    const first = (await sb.events())[0]!.id;
    const { events, listenCursors } = sb.sandbox.store;
    const firstSeq = events.seqOf('acct_unit', first)!;
    // Until the held event is spooled (a second on), a listen killed would resume from the service's cursor.
    const passed: number[] = [];
    await until(() => onDisk(spoolFile), (disk) => {
      const service = listenCursors.get('acct_unit', 'lsn_window1234') ?? 0;
      if (disk.cursor === undefined && service >= firstSeq) passed.push(service);
      return disk.rows.includes(first);
    }, 'the held event spooled', 5_000);
    expect(passed).toEqual([]);
  });

  it('spools an event the app holds past a second even when the system clock is set back meanwhile', async () => {
    const sb = await sandbox();
    const receiver = await app();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    later(() => release());
    receiver.respond = async () => {
      await released;
      return 200;
    };
    const spoolFile = spoolIn();
    await forwarding(sb, receiver, spoolFile);
    await customers(sb, 2);
    await until(() => receiver.received.length, (n) => n === 2, 'two deliveries held by the app');
    // The wall clock goes back an hour (NTP, a VM resumed): a second held is still a second.
    const now = Date.now.bind(Date);
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => now() - 3_600_000);
    later(() => clock.mockRestore());
    await until(() => onDisk(spoolFile).rows, (rows) => rows.length === 2, 'the held events spooled', 5_000);
  });

  it('spools an event the app fails before it notes the failure, and moves the cursor past it', async () => {
    const sb = await sandbox();
    const receiver = await app();
    // The second request the app gets is failed once.
    receiver.respond = () => (receiver.received.length === 2 ? 500 : 200);
    const spoolFile = spoolIn();
    let atFailure: ReturnType<typeof onDisk> | undefined;
    const { forwarder } = await forwarding(sb, receiver, spoolFile, (result) => {
      if (result.outcome === 'retrying') atFailure ??= onDisk(spoolFile);
    });
    await customers(sb, 3);
    await until(() => forwarder.settled, (n) => n === 3, 'every event acknowledged after one retry', 10_000);
    const ids = (await sb.events()).map((event) => event.id); // oldest first
    const failed = receiver.received[1]!.id;
    expect(receiver.received.filter((r) => r.id === failed)).toHaveLength(2);
    // On disk when the failure is told (not a second later), and the cursor is not before it.
    expect(atFailure!.rows).toContain(failed);
    expect(ids.indexOf(atFailure!.cursor as string)).toBeGreaterThanOrEqual(ids.indexOf(failed));
    await until(() => onDisk(spoolFile).rows, (rows) => rows.length === 0, 'the spool empty once it was delivered');
  });

  /** Leaves `n` events for `url` in the spool, as an earlier run would have: their ids, oldest first. */
  const leftInSpool = (spoolFile: string, url: string, n: number) => {
    const earlier = new Spool(spoolFile);
    const left = Array.from({ length: n }, (_, i) => {
      const event: Event = { id: `evt_earlier${String(i).padStart(5, '0')}`, object: 'event', type: 'customer.created', created: '2030-01-15T00:00:00Z', livemode: false, data: { object: { id: `cus_earlier${i}`, object: 'customer', created: '2030-01-15T00:00:00Z', livemode: false } } };
      return { event, payload: JSON.stringify(event), targets: [url], inOrder: false };
    });
    keep(earlier, left);
    earlier.close();
    return left.map((l) => l.event.id);
  };

  it('delivers, oldest first, more events than it keeps in memory: an earlier run\'s spool and what arrives meanwhile', async () => {
    const sb = await sandbox();
    const receiver = await app();
    const spoolFile = spoolIn();
    // More than the 1,000 a target keeps in memory.
    const left = leftInSpool(spoolFile, receiver.url(), 1_100);
    const { forwarder } = await forwarding(sb, receiver, spoolFile);
    await customers(sb, 3);
    const fresh = (await sb.events()).map((event) => event.id);
    const expected = [...left, ...fresh];
    await until(() => forwarder.settled, (n) => n === expected.length, 'every event acknowledged', 30_000);
    expect(receiver.ids()).toEqual(new Set(expected));
    expect(receiver.received).toHaveLength(expected.length);
    // Oldest first: what arrived meanwhile waited behind the spool's backlog, beyond what was kept in memory.
    const arrivedAt = new Map(receiver.received.map((r, i) => [r.id, i]));
    for (const id of fresh) expect(arrivedAt.get(id)!).toBeGreaterThan(1_000);
    await forwarder.stop();
    const after = new Spool(spoolFile);
    expect(after.count()).toBe(0);
    after.close();
  });

  it('reads the tunnel again after a burst too large for memory went to the spool: a replay behind more than it keeps in memory', async () => {
    const sb = await sandbox();
    const receiver = await app();
    const spoolFile = spoolIn();
    // More than the 1,000 a target keeps in memory.
    const left = leftInSpool(spoolFile, receiver.url(), 1_100);
    // The replay arrives in bursts of more than half of what is kept in memory, so the tunnel
    // is paused; while the spool holds more than memory, each burst is spooled whole.
    await Promise.all(Array.from({ length: 8 }, () => customers(sb, 250)));
    const replayed = (await sb.events()).map((event) => event.id);
    const { forwarder } = await forwarding(sb, receiver, spoolFile, undefined, replayed[0]);
    const expected = [...left, ...replayed];
    await until(() => forwarder.settled, (n) => n === expected.length, 'every event acknowledged', 15_000);
    expect(receiver.ids()).toEqual(new Set(expected));
  });

  it('delivers what arrives after it gave up, 24 hours on, on the last event of an app that is down: nothing was left to probe it with', async () => {
    const sb = await sandbox();
    const receiver = await app();
    let up = false;
    receiver.respond = () => (up ? 200 : 503);
    const { deliveries } = await forwarding(sb, receiver, spoolIn());
    await customers(sb, 1);
    await until(() => deliveries, (all) => all.some((d) => d.outcome === 'app_down'), 'the app found down');
    // A day passes (on listen's clock alone) with the app still down: its one event is given up.
    const now = Date.now.bind(Date);
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => now() + 25 * 3_600_000);
    later(() => clock.mockRestore());
    await until(() => deliveries, (all) => all.some((d) => d.outcome === 'gave_up'), 'the event given up', 15_000);
    up = true;
    await customers(sb, 1);
    const newest = (await sb.events()).at(-1)!.id;
    await until(() => receiver.ids(), (ids) => ids.has(newest), 'the event after the give-up delivered');
  });

  it('delivers a resend of an event it has just delivered from the spool: not taken for the row it had yet to let go', async () => {
    const sb = await sandbox();
    const receiver = await app();
    // The first attempt fails, so the event is spooled; its retry delivers it.
    receiver.respond = () => (receiver.received.length === 1 ? 500 : 200);
    let resent: Promise<{ status: number }> | undefined;
    await forwarding(sb, receiver, spoolIn(), (result) => {
      // At once, while the delivered row waits for the next batch to be let go.
      if (result.outcome === 'delivered') resent ??= sb.call('POST', `/v1/events/${result.event_id}/resend`, {});
    });
    await customers(sb, 1);
    await until(() => resent, (call) => call !== undefined, 'the event delivered on its retry');
    expect((await resent!).status).toBe(200);
    await until(() => receiver.received.length, (n) => n === 3, 'the resend delivered');
    expect(receiver.ids().size).toBe(1);
  });

  it('keeps, and says so at Ready, what an earlier run left for a URL this run does not forward to', async () => {
    const sb = await sandbox();
    const receiver = await app();
    const spoolFile = spoolIn();
    const gone = 'http://127.0.0.1:9/gone';
    const earlier = new Spool(spoolFile);
    keep(earlier, ['a', 'b'].map((n) => {
      const event: Event = { id: `evt_left${n}`, object: 'event', type: 'customer.created', created: '2030-01-15T00:00:00Z', livemode: false, data: { object: { id: `cus_left${n}`, object: 'customer', created: '2030-01-15T00:00:00Z', livemode: false } } };
      return { event, payload: JSON.stringify(event), targets: n === 'a' ? [receiver.url(), gone] : [gone], inOrder: false };
    }));
    earlier.close();
    const { forwarder, said } = await forwarding(sb, receiver, spoolFile);
    expect(said).toEqual([
      '1 event from an earlier run waits in the spool: delivering it first.',
      `! 2 events from an earlier run wait in the spool for ${gone}, which this run does not forward to: a pay webhooks listen with --forward-to ${gone} delivers them.`,
    ]);
    await until(() => receiver.ids(), (ids) => ids.has('evt_lefta'), 'the event left for this app');
    // Still waiting for the other URL: kept, not acknowledged, and told apart from what waits for this run's.
    expect(await forwarder.stop()).toBe(2);
    expect(forwarder.settled).toBe(0);
    expect(forwarder.left).toEqual({ events: 0, elsewhere: [{ target: gone, events: 2 }] });
  });
});
