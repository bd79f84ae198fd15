import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Event } from '../domain/events.js';
import { ListenerRunningError } from './errors.js';
import { classify, Forwarder, type ListenSink, targetsOf } from './forwarder.js';
import { Spool } from './spool.js';

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

  it('keeps events per target in order until each target is done, across reopening', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pay-spool-'));
    try {
      const file = join(dir, 'listen', 'lsn_test.db');
      let spool = new Spool(file);
      const ids = (pending: Array<{ event: Event }>) => pending.map((p) => p.event.id);
      expect(ids(spool.receive([{ event: event('evt_1'), targets: ['a', 'b'], inOrder: true }]))).toEqual(['evt_1', 'evt_1']);
      const added = spool.receive([
        { event: event('evt_2'), targets: ['a'], inOrder: true },
        { event: event('evt_1'), targets: ['a', 'b'], inOrder: false }, // a resend while still waiting: not doubled
        { event: event('evt_0'), targets: ['a'], inOrder: false }, // a resend of an old event leaves the cursor
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
    const quiet: ListenSink = { ready() {}, event() {}, delivery() {}, notice() {}, warning() {} };
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
});
