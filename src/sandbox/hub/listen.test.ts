import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { startTestSandbox, testSandboxes, type TestSandbox } from '../../../test/support/sandboxes.js';
import { until } from '../../../test/support/wait.js';
import { openWebSocket } from '../../../test/support/ws.js';
import type { ServerFrame } from '../../domain/listen.js';

/** A bare tunnel client that records frames and acknowledges only when told. */
class Tap {
  readonly frames: ServerFrame[] = [];
  closed: number | undefined;
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => this.frames.push(JSON.parse(String(data)) as ServerFrame));
    ws.on('close', (code) => (this.closed = code));
  }

  static async open(sb: TestSandbox, query: string, headers = sb.headers): Promise<Tap> {
    const { ws, opened } = openWebSocket(`${sb.baseUrl.replace('http', 'ws')}/v1/listen${query}`, headers);
    const tap = new Tap(ws);
    await opened;
    return tap;
  }

  get ready() {
    return this.frames.find((f) => f.type === 'ready') as Extract<ServerFrame, { type: 'ready' }> | undefined;
  }

  events(): string[] {
    return this.frames.flatMap((f) => (f.type === 'events' ? f.events.map((event) => event.id) : []));
  }

  ack(...ids: string[]): void {
    this.ws.send(JSON.stringify({ type: 'ack', ids }));
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }
}

describe('listen hub', () => {
  const { sandbox, later } = testSandboxes();
  const customer = async (sb: TestSandbox) => (await sb.call('POST', '/v1/customers', {})).body;
  const eventIds = async (sb: TestSandbox) => ((await sb.call('GET', '/v1/events?limit=100')).body.data as Array<{ id: string }>).map((e) => e.id).reverse();

  it('refuses a tunnel without valid auth with the service error body', async () => {
    const sb = await sandbox();
    await expect(Tap.open(sb, '', { 'pay-account': sb.account, 'pay-api-key': 'sk_test_wrong' })).rejects.toMatchObject({
      status: 401,
      body: { error: { type: 'authentication_error', code: 'api_key_invalid' } },
    });
    await expect(Tap.open(sb, '?types=customer.creatd')).rejects.toMatchObject({ status: 400, body: { error: { param: 'types.0' } } });
  });

  it('starts a first run at the newest event, then streams live events in order', async () => {
    const sb = await sandbox();
    await customer(sb);
    const tap = await Tap.open(sb, '?listener=lsn_unit0001');
    await until(() => tap.ready, Boolean, 'ready');
    const [before] = await eventIds(sb);
    expect(tap.ready).toMatchObject({ listener: 'lsn_unit0001', after: before, cursor_source: 'latest', backlog: 0 });
    for (let i = 0; i < 5; i++) await customer(sb);
    const all = await eventIds(sb);
    await until(() => tap.events().length, (n) => n === 5, 'five events');
    expect(tap.events()).toEqual(all.slice(1));
    await tap.close();
  });

  it('resumes after the last acknowledged event when the client names no cursor', async () => {
    const sb = await sandbox();
    const tap = await Tap.open(sb, '?listener=lsn_unit0002');
    for (let i = 0; i < 3; i++) await customer(sb);
    await until(() => tap.events().length, (n) => n === 3, 'three events');
    // The newest of a batch moves the cursor, wherever it stands in it; an id of no event, though it names a later row, does not.
    tap.ack(tap.events()[1]!, 'evt_zzzzzzzzzzzzzzzzzzzzzzzz', tap.events()[0]!);
    tap.ack(tap.events()[0]!); // late acks never rewind the cursor
    await new Promise((resolve) => setTimeout(resolve, 50));
    await tap.close();
    await customer(sb);
    const again = await Tap.open(sb, '?listener=lsn_unit0002');
    await until(() => again.events().length, (n) => n === 2, 'the replay');
    const all = await eventIds(sb);
    expect(again.ready).toMatchObject({ after: all[1], cursor_source: 'listener', backlog: 2 });
    expect(again.events()).toEqual(all.slice(2));
    await again.close();
  });

  it('resumes after a cursor the log no longer has (the account was reset) at the position its id names: nothing logged since is missed', async () => {
    const sb = await sandbox();
    for (let i = 0; i < 2; i++) await customer(sb);
    const [, before] = await eventIds(sb);
    expect((await sb.call('POST', '/v1/test-helpers/reset', {})).status).toBe(200);
    for (let i = 0; i < 2; i++) await customer(sb);
    const since = await eventIds(sb);
    expect(since).toHaveLength(2);
    const tap = await Tap.open(sb, `?after=${before}&listener=lsn_unit0009`);
    await until(() => tap.events().length, (n) => n === 2, 'the events since the reset');
    expect(tap.ready).toMatchObject({ cursor_source: 'after_gone', backlog: 2 });
    expect(tap.events()).toEqual(since);
    await tap.close();
  });

  it('resumes at the position a reset erased also once the sandbox restarted: positions are never used again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pay-listen-reset-'));
    later(() => rmSync(dir, { recursive: true, force: true }));
    const db = join(dir, 'sandbox.db');
    let sb = await startTestSandbox({ db });
    for (let i = 0; i < 2; i++) await customer(sb);
    const [, before] = await eventIds(sb);
    expect((await sb.call('POST', '/v1/test-helpers/reset', {})).status).toBe(200);
    await sb.close();
    sb = await startTestSandbox({ db });
    later(() => sb.close());
    for (let i = 0; i < 3; i++) await customer(sb);
    const since = await eventIds(sb);
    expect(since).toHaveLength(3);
    const tap = await Tap.open(sb, `?after=${before}&listener=lsn_unit0010`);
    await until(() => tap.ready, Boolean, 'ready');
    expect(tap.ready).toMatchObject({ cursor_source: 'after_gone', backlog: 3 });
    await until(() => tap.events().length, (n) => n === 3, 'the events since the reset');
    expect(tap.events()).toEqual(since);
    await tap.close();
  });

  it('resumes an after of another log (a log named other than its own) at the start of its log, or where the listener acknowledged in it', async () => {
    const sb = await sandbox();
    for (let i = 0; i < 3; i++) await customer(sb);
    const all = await eventIds(sb);
    const first = await Tap.open(sb, '');
    await until(() => first.ready, Boolean, 'ready');
    const log = first.ready!.log!;
    expect(log).toMatch(/^log_[0-9a-f]{24}$/);
    await first.close();
    // Its own log named: the after is looked for in it, as without a log.
    const same = await Tap.open(sb, `?after=${all[1]}&log=${log}&listener=lsn_unit0011`);
    await until(() => same.ready, Boolean, 'ready');
    expect(same.ready).toMatchObject({ after: all[1], log, cursor_source: 'after', backlog: 1 });
    await same.close();
    // Another log: its after (whatever this log holds at its position) says nothing here.
    const other = await Tap.open(sb, `?after=${all[1]}&log=log_0123456789abcdef01234567&listener=lsn_unit0012`);
    await until(() => other.events().length, (n) => n === 3, 'the whole log');
    expect(other.ready).toMatchObject({ after: null, log, cursor_source: 'other_log', backlog: 3 });
    expect(other.events()).toEqual(all);
    other.ack(all[2]!);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await other.close();
    await customer(sb);
    const again = await Tap.open(sb, `?after=${all[1]}&log=log_0123456789abcdef01234567&listener=lsn_unit0012`);
    await until(() => again.events().length, (n) => n === 1, 'the event since');
    expect(again.ready).toMatchObject({ after: all[2], log, cursor_source: 'listener', backlog: 1 });
    await again.close();
  });

  it('honours after, from and types, and falls back when after is unknown', async () => {
    const sb = await sandbox();
    for (let i = 0; i < 4; i++) await customer(sb);
    const all = await eventIds(sb);
    const after = await Tap.open(sb, `?after=${all[1]}`);
    await until(() => after.events().length, (n) => n === 2, 'after');
    expect(after.events()).toEqual(all.slice(2));
    const from = await Tap.open(sb, `?from=${all[1]}`);
    await until(() => from.events().length, (n) => n === 3, 'from');
    expect(from.events()).toEqual(all.slice(1));
    const none = await Tap.open(sb, `?from=${all[0]}&types=payment_intent.*`);
    await until(() => none.ready, Boolean, 'ready');
    expect(none.ready!.backlog).toBe(0);
    const unknown = await Tap.open(sb, '?after=evt_gone');
    await until(() => unknown.ready, Boolean, 'ready');
    expect(unknown.ready).toMatchObject({ cursor_source: 'unknown_after', after: all[3], backlog: 0 });
    await customer(sb);
    await until(() => from.events().length, (n) => n === 4, 'live after replay');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(none.events()).toEqual([]);
    for (const tap of [after, from, none, unknown]) await tap.close();
  });

  it('sends a resent event to running tunnels and counts the listeners among them', async () => {
    const sb = await sandbox();
    const tap = await Tap.open(sb, '?listener=lsn_unit0010');
    const other = await Tap.open(sb, '?types=payment_intent.*');
    // A watcher (events tail: no listener id) is shown it, and forwards nothing: not counted.
    const watcher = await Tap.open(sb, '');
    await customer(sb);
    const [id] = await eventIds(sb);
    await until(() => tap.events().length, (n) => n === 1, 'the event');
    const result = await sb.call('POST', `/v1/events/${id}/resend`, {});
    expect(result.body).toEqual({ object: 'event_resend', created: expect.any(String), livemode: false, event: id, webhook_endpoints: [], listeners: 1 });
    await until(() => tap.frames.filter((f) => f.type === 'event' && f.resend).length, (n) => n === 1, 'the resend');
    await until(() => watcher.frames.filter((f) => f.type === 'event' && f.resend).length, (n) => n === 1, 'the resend, watched');
    expect(other.frames.filter((f) => f.type === 'event' || f.type === 'events')).toEqual([]);
    await tap.close();
    await other.close();
    await watcher.close();
  });

  it('pings, and closes a tunnel that stops answering', async () => {
    const sb = await sandbox({ heartbeatMs: { listen: 40 } });
    const tap = await Tap.open(sb, '');
    await until(() => tap.closed, (code) => code !== undefined, 'the silent tunnel to be closed', 2_000);
    expect(tap.frames.some((f) => f.type === 'ping')).toBe(true);
    const answering = await Tap.open(sb, '');
    answering.ws.on('message', (data) => {
      if ((JSON.parse(String(data)) as ServerFrame).type === 'ping') answering.ws.send(JSON.stringify({ type: 'pong' }));
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answering.closed).toBeUndefined();
    await answering.close();
  });

  it('tells tunnels it is going away when the sandbox stops', async () => {
    const sb = await startTestSandbox();
    const tap = await Tap.open(sb, '');
    await sb.close();
    await until(() => tap.closed, (code) => code !== undefined, 'the tunnel to close', 2_000);
    expect(tap.closed).toBe(1001);
  });
});
