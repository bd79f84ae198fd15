import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Receiver } from '../support/receiver.js';
import { until } from '../support/wait.js';
import { type PayProcess, type SandboxHandle, startSandbox } from './harness.js';

let sb: SandboxHandle;
const app = new Receiver();
beforeAll(async () => {
  sb = await startSandbox({ clock: '2030-01-15' });
  await app.start();
});
afterAll(async () => {
  await app.stop();
  await sb?.stop();
});

/** Creates n customers, ten requests at a time: n customer.created events. */
async function createEvents(n: number): Promise<void> {
  for (let done = 0; done < n; done += 10) {
    await Promise.all(Array.from({ length: Math.min(10, n - done) }, () => sb.http('POST', '/v1/customers', {})));
  }
}

async function allEventIds(): Promise<string[]> {
  const ids: string[] = [];
  let after: string | undefined;
  for (;;) {
    const page = (await sb.http('GET', `/v1/events?limit=100${after ? `&starting_after=${after}` : ''}`)).body;
    ids.push(...page.data.map((e: { id: string }) => e.id));
    if (!page.has_more) return ids;
    after = ids.at(-1);
  }
}

describe('pay webhooks listen never loses an event', () => {
  it('delivers 500 events, each signed, through two app restarts and a killed listen', async () => {
    const args = ['webhooks', 'listen', '--forward-to', app.url('/hook?via=listen'), '--print-secret', '--json'];
    const first: PayProcess = sb.spawn(args);
    const ready = JSON.parse(await first.line(/"type":"ready"/));
    expect(ready.secret).toMatch(/^whsec_/);
    app.secret = ready.secret;

    await createEvents(100);
    await app.stop(); // the app is killed…
    await createEvents(50);
    await app.start(); // …and comes back on the same port
    await createEvents(100);
    await first.said(/is answering again/);

    first.signal('SIGKILL'); // listen itself dies without a word
    await first.exited();
    await createEvents(50);
    const second = sb.spawn(args);
    const readyAgain = JSON.parse(await second.line(/"type":"ready"/));
    expect(readyAgain.secret).toBe(ready.secret); // the app's secret did not change
    await second.said(/Resumed after evt_\w+, (\d+ events? replayed|nothing missed)/);

    await createEvents(50);
    await app.stop();
    await createEvents(100);
    await app.start();
    await createEvents(50);

    const ids = await allEventIds();
    expect(ids).toHaveLength(500);
    await until(() => ids.filter((id) => !app.ids().has(id)).length, (missing) => missing === 0, 'every event at the app', 60_000);
    expect(app.received.every((r) => r.verified === true)).toBe(true);
    expect(app.received.every((r) => r.path === '/hook?via=listen')).toBe(true);

    // Each interruption was announced: the app going and coming back, the resumption.
    expect(first.stderr()).toMatch(/is not answering \((ECONNREFUSED|ECONNRESET)\)/);
    expect(second.stderr()).toMatch(/is not answering \((ECONNREFUSED|ECONNRESET)\)[\s\S]*is answering again/);
    const deliveries = second.stdout.map((l) => JSON.parse(l)).filter((l) => l.type === 'delivery' && l.outcome === 'delivered');
    expect(deliveries.length).toBeGreaterThan(0);

    second.signal('SIGINT');
    expect(await second.exited()).toBe(0);
    expect(second.stderr()).toMatch(/Stopped\./);
  }, 90_000);

  it('loses none of the deliveries in flight when it is killed: each one the app did not answer goes out again', async () => {
    const args = ['webhooks', 'listen', '--forward-to', app.url('/held'), '--json'];
    const first = sb.spawn(args);
    await first.line(/"type":"ready"/);
    // The app takes the requests and holds every answer: a full window of 16 in flight.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    app.respond = async () => {
      await released;
      return 200;
    };
    const before = app.received.length;
    await createEvents(20);
    await app.waitFor(() => app.received.length - before === 16, 30_000, 'a full window of requests');
    const inFlight = app.received.slice(before).map((r) => r.id);

    first.signal('SIGKILL');
    await first.exited();
    app.respond = () => 200;
    release(); // answers that listen, dead, never reads

    const restartedAt = app.received.length;
    const second = sb.spawn(args);
    await second.line(/"type":"ready"/);
    const created = (await allEventIds()).slice(0, 20);
    await app.waitFor(() => created.every((id) => app.received.slice(restartedAt).some((r) => r.id === id)), 30_000, 'every event delivered again or for the first time');
    // The 16 unanswered ones were still waiting, as were the 4 the window had no room for.
    expect(inFlight.every((id) => created.includes(id))).toBe(true);
    second.signal('SIGINT');
    expect(await second.exited()).toBe(0);
  }, 90_000);

  it('stops at once while it holds a backlog back (not reading the tunnel), and the next run delivers every event of it', async () => {
    const args = ['webhooks', 'listen', '--forward-to', app.url('/burst'), '--json'];
    const before = new Set(await allEventIds());
    const resume = sb.spawn(args); // from here, a run resumes after the newest event: a backlog
    await resume.line(/"type":"ready"/);
    resume.signal('SIGINT');
    expect(await resume.exited()).toBe(0);
    await createEvents(700);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    app.respond = async () => {
      await released;
      return 200;
    };
    const first = sb.spawn(args);
    await first.line(/"type":"ready"/);
    // None answered: from 500 waiting it stops reading the tunnel (the service's log keeps the rest).
    await until(() => first.stdout.filter((line) => line.includes('"type":"event"')).length, (n) => n >= 500, 'the backlog received', 30_000);
    const interrupted = Date.now();
    first.signal('SIGINT');
    expect(await first.exited()).toBe(0);
    // Its deliveries in flight get 2 s; a connection left paused would wait for ws's 30 s close timeout.
    expect(Date.now() - interrupted).toBeLessThan(15_000);
    app.respond = () => 200;
    release();

    const restartedAt = app.received.length;
    const second = sb.spawn(args);
    await second.line(/"type":"ready"/);
    const created = (await allEventIds()).filter((id) => !before.has(id));
    expect(created).toHaveLength(700);
    await app.waitFor(() => created.every((id) => app.received.slice(restartedAt).some((r) => r.id === id)), 60_000, 'every event of the backlog delivered');
    second.signal('SIGINT');
    expect(await second.exited()).toBe(0);
  }, 120_000);
});

describe('pay webhooks listen across a sandbox started again with a new database', () => {
  it('delivers every event the new log made before listen reconnected, warning that its cursor is of another log; and so does a listen started again', async () => {
    const memory = await startSandbox({ clock: '2030-01-15' }); // --memory, in the foreground
    const listens: PayProcess[] = [];
    const listen = () => {
      listens.push(memory.spawn(['webhooks', 'listen', '--forward-to', app.url('/new-log'), '--json']));
      return listens.at(-1)!;
    };
    const eventIds = async () => ((await memory.http('GET', '/v1/events?limit=100')).body.data as Array<{ id: string }>).map((e) => e.id);
    const otherLog = (n: string) => new RegExp(`^! The service's event log is not the one this listener stopped in .*: delivering its events from the start \\(${n}\\)\\.$`, 'm');
    try {
      const listener = listen();
      await listener.line(/"type":"ready"/);
      for (let i = 0; i < 3; i++) await memory.http('POST', '/v1/customers', {});
      const before = await eventIds();
      await app.waitFor(() => before.every((id) => app.ids().has(id)), 15_000, 'the first log\'s events');
      // Down until listen's next try is seconds away: the new log's events come before it reconnects.
      await memory.restart(() => listener.said(/reconnecting in (?:[3-9]|\d\d)\.\ds/, 20_000));
      for (let i = 0; i < 2; i++) await memory.http('POST', '/v1/customers', {});
      const since = await eventIds();
      expect(since).toHaveLength(2);
      expect(listener.stderr()).not.toMatch(/Reconnected/);
      await app.waitFor(() => since.every((id) => app.ids().has(id)), 20_000, 'the new log\'s events');
      expect(JSON.parse(await listener.line(/^\{"type":"reconnected"/))).toEqual({ type: 'reconnected', after: null, backlog: 2 });
      expect(listener.stderr()).toMatch(otherLog('2 events'));
      listener.signal('SIGINT');
      expect(await listener.exited()).toBe(0);

      // Started again, listen resumes where it stopped in this log (the service kept its cursor)…
      const second = listen();
      await second.said(new RegExp(`Resumed after ${since[0]}, nothing missed\\.`));
      second.signal('SIGINT');
      expect(await second.exited()).toBe(0);
      // …and its spool keeps the log with its cursor: a listen started after the sandbox was gets the new log's events too.
      await memory.restart();
      await memory.http('POST', '/v1/customers', {});
      const [third] = await eventIds();
      const last = listen();
      await app.waitFor(() => app.ids().has(third!), 20_000, 'the third log\'s event');
      await last.said(otherLog('1 event'));
    } finally {
      for (const listener of listens) {
        listener.signal('SIGKILL');
        await listener.exited();
      }
      await memory.stop();
    }
  }, 60_000);
});
