import { describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { testSandboxes, type TestSandbox } from '../../../test/support/sandboxes.js';
import { until } from '../../../test/support/wait.js';
import { openWebSocket } from '../../../test/support/ws.js';
import type { ReaderFrame, ServerFrame } from '../../domain/reader-protocol.js';

/** A bare reader connection that records frames; it answers pings only when told to. */
class RawReader {
  readonly frames: ServerFrame[] = [];
  closed: { code: number; reason: string } | undefined;
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => this.frames.push(JSON.parse(String(data)) as ServerFrame));
    ws.on('close', (code, reason) => (this.closed = { code, reason: String(reason) }));
  }

  static async open(sb: TestSandbox, headers: Record<string, string> = sb.headers): Promise<RawReader> {
    const { ws, opened } = openWebSocket(`${sb.baseUrl.replace('http', 'ws')}/v1/terminal-readers/connect`, headers);
    const reader = new RawReader(ws);
    await opened;
    return reader;
  }

  send(frame: ReaderFrame | Record<string, unknown>): void {
    this.ws.send(JSON.stringify(frame));
  }

  /** The next frame of this type from `from` on. */
  async next<T extends ServerFrame['type']>(type: T, from = 0): Promise<Extract<ServerFrame, { type: T }>> {
    const frames = await until(() => this.frames.slice(from), (f) => f.some((x) => x.type === type), `a ${type} frame`);
    return frames.find((x) => x.type === type) as Extract<ServerFrame, { type: T }>;
  }
}

describe('terminal reader hub', () => {
  const { sandbox, later } = testSandboxes();
  async function connect(sb: TestSandbox, hello: Record<string, unknown>): Promise<RawReader> {
    const reader = await RawReader.open(sb);
    later(() => reader.ws.terminate());
    reader.send({ type: 'hello', ...hello });
    return reader;
  }
  const readerStatus = async (sb: TestSandbox, id: string) => (await sb.call('GET', `/v1/terminal-readers/${id}`)).body.status;

  it('tells a plain request of a WebSocket path that it needs the upgrade (not "no such reader \'connect\'")', async () => {
    const sb = await sandbox();
    for (const path of ['/v1/terminal-readers/connect', '/v1/listen']) {
      const res = await sb.call('GET', path);
      expect(res.status, path).toBe(400);
      expect(res.body.error, path).toMatchObject({ type: 'invalid_request_error', code: 'websocket_required', message: expect.stringContaining(`GET ${path} is a WebSocket endpoint`) });
    }
  });

  it('authenticates a plain request of a WebSocket path before telling it to upgrade (401 / 403, as any request)', async () => {
    const sb = await sandbox();
    const other = sb.sandbox.addAccount({ id: 'acct_other', apiKey: 'sk_test_other_abcdefghijklmnopqrstuvwxyz' });
    const get = async (path: string, headers: Record<string, string>) => {
      const res = await fetch(new URL(path, sb.baseUrl), { headers });
      return { status: res.status, error: ((await res.json()) as { error: Record<string, unknown> }).error };
    };
    for (const path of ['/v1/terminal-readers/connect', '/v1/listen']) {
      expect(await get(path, { 'pay-account': sb.account }), path).toMatchObject({ status: 401, error: { type: 'authentication_error', code: 'api_key_missing' } });
      expect(await get(path, { 'pay-account': sb.account, 'pay-api-key': 'sk_test_wrong_abcdefghijklmnopqrstuvwxyz' }), path).toMatchObject({ status: 401, error: { code: 'api_key_invalid' } });
      expect(await get(path, { 'pay-account': other.id, 'pay-api-key': sb.apiKey }), path).toMatchObject({ status: 403, error: { type: 'permission_error', code: 'account_mismatch' } });
      expect(await get(path, sb.headers), path).toMatchObject({ status: 400, error: { code: 'websocket_required' } });
      // An upgrade is refused alike.
      const wsUrl = `${sb.baseUrl.replace('http', 'ws')}${path}`;
      await expect(openWebSocket(wsUrl, { 'pay-account': sb.account, 'pay-api-key': 'sk_test_wrong_abcdefghijklmnopqrstuvwxyz' }).opened, path).rejects.toMatchObject({ status: 401, body: { error: { code: 'api_key_invalid' } } });
      await expect(openWebSocket(wsUrl, { 'pay-account': other.id, 'pay-api-key': sb.apiKey }).opened, path).rejects.toMatchObject({ status: 403, body: { error: { code: 'account_mismatch' } } });
    }
  });

  it('registers an unknown serial as an ordered developer reader, online while connected', async () => {
    const sb = await sandbox();
    const raw = await connect(sb, { serial_number: 'SN-HUB-1', processor: 'B', model: 'b-mobile', label: 'Till 1' });
    const { reader, heartbeat_ms } = await raw.next('registered');
    expect(reader).toMatchObject({ object: 'terminal_reader', serial_number: 'SN-HUB-1', processor: 'B', model: 'b-mobile', label: 'Till 1', device_type: 'developer', status: 'online', action: null });
    expect(heartbeat_ms).toBeGreaterThan(0);
    expect(await readerStatus(sb, reader.id)).toBe('online');
    raw.ws.close();
    await until(() => readerStatus(sb, reader.id), (s) => s === 'offline', 'the reader to go offline');
    // The same serial later is the same reader.
    const again = await connect(sb, { serial_number: 'SN-HUB-1', processor: 'B', model: 'b-mobile' });
    expect((await again.next('registered')).reader.id).toBe(reader.id);
  });

  it('sends a reader the action confirmed while it was offline, and runs its result as the present helper does', async () => {
    const sb = await sandbox();
    const first = await connect(sb, { serial_number: 'SN-HUB-2', processor: 'A', model: 'a-handheld' });
    const readerId = (await first.next('registered')).reader.id;
    first.ws.close();
    await until(() => readerStatus(sb, readerId), (s) => s === 'offline', 'offline');
    const pm = (await sb.call('POST', '/v1/payment-methods', { type: 'card_present', terminal_reader_id: readerId })).body;
    const pi = (await sb.call('POST', '/v1/payment-intents', { amount: 1000, currency: 'usd', payment_method_types: ['card_present'], payment_method_id: pm.id, confirm: true })).body;
    expect(pi.status).toBe('requires_action');

    const raw = await connect(sb, { serial_number: 'SN-HUB-2', processor: 'A', model: 'a-handheld' });
    expect(await raw.next('process_payment_intent')).toEqual({ type: 'process_payment_intent', payment_intent_id: pi.id, amount: 1000, currency: 'usd' });
    const seen = raw.frames.length;
    raw.send({ type: 'result', payment_intent_id: pi.id, outcome: 'approved', tip_amount: 100, method: 'insert' });
    const { object } = await raw.next('ack', seen);
    expect(object).toMatchObject({ id: pi.id, status: 'succeeded', amount_received: 1100, tip_amount: 100 });
    const charge = (await sb.call('GET', `/v1/charges/${(object as { latest_charge_id: string }).latest_charge_id}`)).body;
    expect(charge.payment_method_details).toMatchObject({ type: 'card_present', terminal_reader_id: readerId, processor: 'A', card_present: { brand: 'visa', last4: '4242', read_method: 'insert' } });
    const types = (await sb.call('GET', '/v1/events?limit=100')).body.data.map((e: { type: string }) => e.type);
    expect(types).toEqual(expect.arrayContaining(['payment_intent.succeeded', 'charge.succeeded']));

    // The action is done: a second answer is refused and changes nothing.
    const refused = raw.frames.length;
    raw.send({ type: 'result', payment_intent_id: pi.id, outcome: 'approved' });
    expect(await raw.next('error', refused)).toMatchObject({ status: 409, error: { code: 'reader_action_stale' } });
  });

  it('a same-day processor B refund whose reader goes offline before the customer confirms it fails, clearly; a replaced connection is not offline', async () => {
    const sb = await sandbox();
    const first = await connect(sb, { serial_number: 'SN-HUB-R', processor: 'B', model: 'b-mobile' });
    const readerId = (await first.next('registered')).reader.id;
    const pm = (await sb.call('POST', '/v1/payment-methods', { type: 'card_present', terminal_reader_id: readerId })).body;
    const pi = (await sb.call('POST', '/v1/payment-intents', { amount: 1000, currency: 'usd', payment_method_types: ['card_present'], payment_method_id: pm.id, confirm: true })).body;
    const seen = first.frames.length;
    first.send({ type: 'result', payment_intent_id: pi.id, outcome: 'approved' });
    await first.next('ack', seen);
    const refund = (await sb.call('POST', '/v1/refunds', { payment_intent_id: pi.id, amount: 400 })).body;
    expect(refund.status).toBe('pending');
    // A newer connection of the reader replaces this one: still online, the refund still waits, sent to it.
    const second = await connect(sb, { serial_number: 'SN-HUB-R', processor: 'B', model: 'b-mobile' });
    expect(await second.next('refund_payment')).toMatchObject({ refund_id: refund.id });
    expect((await until(() => first.closed, (closed) => closed !== undefined, 'the older connection replaced'))!.code).toBe(4409);
    expect((await sb.call('GET', `/v1/refunds/${refund.id}`)).body.status).toBe('pending');
    second.ws.terminate();
    const failed = await until(async () => (await sb.call('GET', `/v1/refunds/${refund.id}`)).body, (r) => r.status !== 'pending', 'the refund to fail');
    expect(failed).toMatchObject({ status: 'failed', failure_reason: `The terminal reader ${readerId} went offline before the customer confirmed the refund; it did not go through.` });
    expect((await sb.call('GET', `/v1/terminal-readers/${readerId}`)).body).toMatchObject({ status: 'offline', action: null });
    const types = (await sb.call('GET', '/v1/events?limit=100')).body.data.map((e: { type: string }) => e.type);
    expect(types).toContain('charge.refund.failed');
  });

  it('refuses bad frames with the service error body, and a refused hello closes the connection', async () => {
    const sb = await sandbox();
    const early = await connect(sb, {});
    expect(await early.next('error')).toMatchObject({ status: 400, error: { code: 'parameter_missing', param: 'serial_number' } });
    await until(() => early.closed, (c) => c?.code === 4400, 'close 4400');

    const selfOwnedB = await connect(sb, { serial_number: 'SN-HUB-3', processor: 'B', model: 'b-mobile', activation_code: 'ABCD-EFGH' });
    expect(await selfOwnedB.next('error')).toMatchObject({ status: 400, error: { code: 'parameter_invalid', param: 'processor' } });
    const wrongModel = await connect(sb, { serial_number: 'SN-HUB-3', processor: 'A', model: 'b-mobile' });
    expect(await wrongModel.next('error')).toMatchObject({ status: 400, error: { param: 'model' } });

    const raw = await RawReader.open(sb);
    later(() => raw.ws.terminate());
    raw.send({ type: 'result', payment_intent_id: 'pi_123', outcome: 'approved' });
    expect(await raw.next('error')).toMatchObject({ status: 409, error: { code: 'invalid_state' } });
    raw.ws.send('not json');
    expect((await until(() => raw.frames.filter((f) => f.type === 'error'), (f) => f.length === 2, 'second error'))[1]).toMatchObject({ status: 400, error: { code: 'invalid_json' } });
    expect(raw.closed).toBeUndefined();

    await expect(RawReader.open(sb, { 'pay-account': sb.account })).rejects.toMatchObject({ status: 401, body: { error: { code: 'api_key_missing' } } });
  });

  it('activates a self-owned processor A reader with a code; a known serial must keep its processor and model', async () => {
    const sb = await sandbox();
    const code = (await sb.call('POST', '/v1/terminal-readers/activation-codes')).body.code;
    const raw = await connect(sb, { serial_number: 'SN-OWN-1', processor: 'A', model: 'a-countertop', activation_code: code });
    const { reader } = await raw.next('registered');
    expect(reader).toMatchObject({ device_type: 'self_owned', status: 'online' });
    raw.ws.close();
    await until(() => readerStatus(sb, reader.id), (s) => s === 'offline', 'the reader to go offline');
    // The same command run again (a restarted simulator) is the reader its code activated.
    const restarted = await connect(sb, { serial_number: 'SN-OWN-1', processor: 'A', model: 'a-countertop', activation_code: code.toLowerCase() });
    expect((await restarted.next('registered')).reader).toMatchObject({ id: reader.id, device_type: 'self_owned', status: 'online' });
    restarted.ws.close();
    // Another serial may not use it again.
    const other = await connect(sb, { serial_number: 'SN-OWN-2', processor: 'A', model: 'a-countertop', activation_code: code });
    expect(await other.next('error')).toMatchObject({ status: 400, error: { param: 'activation_code', message: expect.stringContaining('already used') } });
    const renamed = await connect(sb, { serial_number: 'SN-OWN-1', processor: 'A', model: 'a-handheld' });
    expect(await renamed.next('error')).toMatchObject({ status: 400, error: { param: 'model', message: expect.stringContaining(reader.id) } });
  });

  it('a newer connection of a reader replaces the older one (4409); a silent reader goes offline', async () => {
    const sb = await sandbox({ heartbeatMs: { readers: 100 } });
    const hello = { serial_number: 'SN-HUB-4', processor: 'B', model: 'b-handheld' };
    const older = await connect(sb, hello);
    const readerId = (await older.next('registered')).reader.id;
    const newer = await connect(sb, hello);
    await newer.next('registered');
    await until(() => older.closed, (c) => c?.code === 4409, 'the older connection to close with 4409');
    expect(await readerStatus(sb, readerId)).toBe('online');
    // Pings go unanswered: within a few heartbeats the hub drops the reader.
    await newer.next('ping');
    await until(() => readerStatus(sb, readerId), (s) => s === 'offline', 'the silent reader to go offline', 3_000);
  });
});
