import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cuttingProxy } from '../../test/support/cutting-proxy.js';
import { startTestSandbox, testSandboxes, type TestSandbox } from '../../test/support/sandboxes.js';
import { until } from '../../test/support/wait.js';
import { Client } from '../client/client.js';
import { NetworkError } from '../client/errors.js';
import { ApiError } from '../domain/errors.js';
import { type Customer, type CustomerAnswer, ReaderSimulator, type SimulatorOptions, type SimulatorSink } from './simulator.js';

type Report = { kind: keyof SimulatorSink; args: unknown[] };

/** A sink that records every report, in order. */
function recorder(): { sink: SimulatorSink; reports: Report[]; kinds: () => string[] } {
  const reports: Report[] = [];
  const record = (kind: keyof SimulatorSink) => (...args: unknown[]) => void reports.push({ kind, args });
  const sink: SimulatorSink = {
    registered: record('registered'),
    action: record('action'),
    answered: record('answered'),
    refused: record('refused'),
    canceled: record('canceled'),
    lost: record('lost'),
  };
  return { sink, reports, kinds: () => reports.map((r) => r.kind) };
}

const answering = (answer: CustomerAnswer): Customer => async () => answer;

describe('reader simulator', () => {
  const { sandbox, later } = testSandboxes();

  function simulate(sb: TestSandbox, options: Partial<SimulatorOptions> & Pick<SimulatorOptions, 'reader'>) {
    const rec = recorder();
    const client = new Client({ baseUrl: sb.baseUrl, account: sb.account, apiKey: sb.apiKey, headerPrefix: 'pay', retries: 0 });
    const simulator = new ReaderSimulator({ baseUrl: sb.baseUrl, headers: sb.headers, client, customer: answering({}), sink: rec.sink, ...options });
    const done = simulator.run();
    done.catch(() => {});
    later(async () => {
      simulator.stop();
      await done.catch(() => {});
      await client.close();
    });
    const readerId = async () => {
      await until(() => rec.reports, (r) => r.some((x) => x.kind === 'registered'), 'registration');
      return (rec.reports.find((x) => x.kind === 'registered')!.args[0] as { id: string }).id;
    };
    return { simulator, done, ...rec, readerId };
  }

  async function confirmOn(sb: TestSandbox, readerId: string, amount = 1000) {
    const pm = (await sb.call('POST', '/v1/payment-methods', { type: 'card_present', terminal_reader_id: readerId })).body;
    return (await sb.call('POST', '/v1/payment-intents', { amount, currency: 'usd', payment_method_types: ['card_present'], payment_method_id: pm.id, confirm: true })).body;
  }
  const intentOf = async (sb: TestSandbox, id: string) => (await sb.call('GET', `/v1/payment-intents/${id}`)).body;

  it('registers, answers a payment as the customer does, and with once stops after it', async () => {
    const sb = await sandbox();
    const sim = simulate(sb, { reader: { serial_number: 'SN-SIM-1', processor: 'A', model: 'a-countertop' }, customer: answering({ available_amount: 400, method: 'swipe' }), once: true });
    const readerId = await sim.readerId();
    const pi = await confirmOn(sb, readerId);
    await sim.done;
    expect(sim.kinds()).toEqual(['registered', 'action', 'answered']);
    expect(sim.reports[1]!.args[0]).toEqual({ type: 'process_payment_intent', payment_intent_id: pi.id, amount: 1000, currency: 'usd' });
    expect(sim.reports[2]!.args[2]).toMatchObject({ id: pi.id, status: 'succeeded', amount_received: 400 });
    expect(await intentOf(sb, pi.id)).toMatchObject({ status: 'succeeded', amount_received: 400 });
    await until(async () => (await sb.call('GET', `/v1/terminal-readers/${readerId}`)).body.status, (s) => s === 'offline', 'offline after once');
  });

  it.each([
    { outcome: 'approved', status: 'succeeded' },
    { outcome: 'declined', status: 'requires_payment_method' },
  ] as const)('reports what the card did ($outcome) when the connection dropped after the service applied it but before its ack arrived, never "canceled"', async ({ outcome, status }) => {
    const sb = await sandbox();
    // The service applied the answer and sent its ack; the network fails before the reader gets it.
    const proxy = await cuttingProxy(sb.baseUrl, (chunk) => chunk.includes('"type":"ack"'));
    later(() => proxy.close());
    const sim = simulate({ ...sb, baseUrl: proxy.baseUrl }, { reader: { serial_number: `SN-SIM-ACK-${outcome}`, processor: 'A', model: 'a-countertop' }, customer: answering({ outcome }), once: true });
    const readerId = await sim.readerId();
    const pi = await confirmOn(sb, readerId);
    await sim.done;
    expect(proxy.cuts()).toBe(1);
    expect((await intentOf(sb, pi.id)).status).toBe(status);
    expect(sim.kinds()).toEqual(['registered', 'action', 'lost', 'registered', 'answered']);
    expect(sim.reports.at(-1)!.args[2]).toMatchObject({ id: pi.id, status });
  });

  /** A customer who never answers, and the signals that took each question away from them. */
  function customerWhoNeverAnswers(): { signals: AbortSignal[]; waitForever: Customer } {
    const signals: AbortSignal[] = [];
    const waitForever: Customer = (_action, signal) => {
      signals.push(signal);
      return new Promise(() => {});
    };
    return { signals, waitForever };
  }

  it('takes the question away when the intent is canceled, and keeps serving', async () => {
    const sb = await sandbox();
    const { signals, waitForever } = customerWhoNeverAnswers();
    const sim = simulate(sb, { reader: { serial_number: 'SN-SIM-2', processor: 'B', model: 'b-mobile' }, customer: waitForever });
    const readerId = await sim.readerId();
    const pi = await confirmOn(sb, readerId);
    await until(() => signals.length, (n) => n === 1, 'the customer to be asked');
    expect((await sb.call('POST', `/v1/payment-intents/${pi.id}/cancel`, {})).body.status).toBe('canceled');
    await until(() => sim.kinds(), (k) => k.includes('canceled'), 'the cancel');
    expect(signals[0]!.aborted).toBe(true);
    const next = await confirmOn(sb, readerId);
    await until(() => signals.length, (n) => n === 2, 'the next payment to reach the customer');
    expect(sim.reports.at(-1)!.args[0]).toMatchObject({ payment_intent_id: next.id });
  });

  it('takes the question away when a card is presented through the test helper instead (payment or refund)', async () => {
    const sb = await sandbox();
    const { signals, waitForever } = customerWhoNeverAnswers();
    const sim = simulate(sb, { reader: { serial_number: 'SN-SIM-HELPER', processor: 'B', model: 'b-countertop' }, customer: waitForever });
    const readerId = await sim.readerId();
    const pi = await confirmOn(sb, readerId);
    await until(() => signals.length, (n) => n === 1, 'the customer to be asked');
    expect((await sb.call('POST', `/v1/test-helpers/terminal-readers/${readerId}/present`, {})).body.status).toBe('succeeded');
    await until(() => sim.kinds(), (k) => k.includes('canceled'), 'the question to be taken away');
    expect(signals[0]!.aborted).toBe(true);
    expect(sim.reports.at(-1)!.args).toEqual([expect.objectContaining({ payment_intent_id: pi.id }), expect.stringContaining('present')]);

    const refund = (await sb.call('POST', '/v1/refunds', { payment_intent_id: pi.id, amount: 100 })).body;
    await until(() => signals.length, (n) => n === 2, 'the customer to be asked to confirm the refund');
    expect((await sb.call('POST', `/v1/test-helpers/terminal-readers/${readerId}/present`, {})).body).toMatchObject({ id: refund.id, status: 'succeeded' });
    await until(() => sim.kinds().filter((k) => k === 'canceled').length, (n) => n === 2, 'the refund question to be taken away');
    expect(signals[1]!.aborted).toBe(true);
    expect(sim.reports.at(-1)!.args[0]).toMatchObject({ type: 'refund_payment', refund_id: refund.id });
  });

  it('reconnects with backoff after the service restarts, announced, and gets the action confirmed meanwhile', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pay-sim-'));
    later(() => rmSync(dir, { recursive: true, force: true }));
    const db = join(dir, 'sandbox.db');
    const first = await startTestSandbox({ db });
    const port = Number(new URL(first.baseUrl).port);
    const code = (await first.call('POST', '/v1/terminal-readers/activation-codes')).body.code;
    // A self-owned reader: its code must be used once only, not again on reconnection.
    const sim = simulate(first, { reader: { serial_number: 'SN-SIM-3', processor: 'A', model: 'a-handheld', activation_code: code }, customer: answering({ outcome: 'approved', tip_amount: 50 }) });
    const readerId = await sim.readerId();
    await first.close();
    await until(() => sim.kinds(), (k) => k.includes('lost'), 'the lost connection to be announced');
    const second = await sandbox({ db, port });
    const pi = await confirmOn(second, readerId);
    await until(() => intentOf(second, pi.id), (i) => i.status === 'succeeded', 'the payment to be answered after reconnecting');
    const registrations = sim.reports.filter((r) => r.kind === 'registered');
    expect(registrations.at(-1)!.args).toEqual([expect.objectContaining({ id: readerId, device_type: 'self_owned', status: 'online' }), true]);
    expect((await intentOf(second, pi.id)).amount_received).toBe(1050);
  });

  it('confirms a same-day processor B refund on the reader, and the customer can decline one', async () => {
    const sb = await sandbox();
    let refundAnswer: CustomerAnswer = { method: 'tap' };
    const customer: Customer = async (action) => (action.type === 'refund_payment' ? refundAnswer : {});
    const sim = simulate(sb, { reader: { serial_number: 'SN-SIM-4', processor: 'B', model: 'b-countertop' }, customer });
    const readerId = await sim.readerId();
    const pi = await confirmOn(sb, readerId);
    await until(() => intentOf(sb, pi.id), (i) => i.status === 'succeeded', 'the payment');
    const refund = (await sb.call('POST', '/v1/refunds', { payment_intent_id: pi.id, amount: 300 })).body;
    expect(refund).toMatchObject({ status: 'pending', terminal_reader_id: readerId });
    await until(async () => (await sb.call('GET', `/v1/refunds/${refund.id}`)).body.status, (s) => s === 'succeeded', 'the refund to complete');
    refundAnswer = { outcome: 'declined' };
    const declined = (await sb.call('POST', '/v1/refunds', { payment_intent_id: pi.id, amount: 200 })).body;
    await until(async () => (await sb.call('GET', `/v1/refunds/${declined.id}`)).body.status, (s) => s === 'failed', 'the declined refund');
    const answered = sim.reports.filter((r) => r.kind === 'answered').map((r) => r.args[2] as { object: string; status: string });
    expect(answered.map((o) => `${o.object} ${o.status}`)).toEqual(['payment_intent succeeded', 'refund succeeded', 'refund failed']);
  });

  it('registers again after its account is reset (pay sandbox reset erased the reader): online under its new id, never a ghost', async () => {
    const sb = await sandbox();
    const sim = simulate(sb, { reader: { serial_number: 'SN-SIM-RESET', processor: 'B', model: 'b-mobile' } });
    const before = await sim.readerId();
    expect((await sb.call('POST', '/v1/test-helpers/reset', {})).status).toBe(200);
    await until(() => sim.reports.filter((r) => r.kind === 'registered').length, (n) => n === 2, 'the reader to register again');
    const after = sim.reports.filter((r) => r.kind === 'registered').at(-1)!.args[0] as { id: string; serial_number: string };
    expect(after.serial_number).toBe('SN-SIM-RESET');
    expect((await sb.call('GET', '/v1/terminal-readers')).body.data).toEqual([expect.objectContaining({ id: after.id, serial_number: 'SN-SIM-RESET', status: 'online' })]);
    expect(sb.sandbox.readers.isOnline(sb.account, before)).toBe(after.id === before);
    const pi = await confirmOn(sb, after.id);
    await until(() => intentOf(sb, pi.id), (i) => i.status === 'succeeded', 'a payment on the registered reader');
  });

  it('fails for what retrying cannot change: a bad key, a refused reader, no service, another connection of the reader', async () => {
    const sb = await sandbox();
    const reader = { serial_number: 'SN-SIM-5', processor: 'B', model: 'b-mobile' } as const;
    const badKey = simulate(sb, { reader, headers: { ...sb.headers, 'pay-api-key': 'sk_test_wrong_abcdefghijklmnop' } });
    await expect(badKey.done).rejects.toMatchObject({ status: 401, code: 'api_key_invalid' });
    const selfOwnedB = simulate(sb, { reader: { ...reader, activation_code: 'ABCD-EFGH' } });
    await expect(selfOwnedB.done).rejects.toMatchObject({ status: 400, param: 'processor' });
    const nowhere = new ReaderSimulator({ baseUrl: 'http://127.0.0.1:9', headers: sb.headers, client: { call: async () => { throw new Error('no service to ask'); } }, reader, customer: answering({}), sink: recorder().sink });
    await expect(nowhere.run()).rejects.toBeInstanceOf(NetworkError);

    const older = simulate(sb, { reader });
    await older.readerId();
    const newer = simulate(sb, { reader });
    await newer.readerId();
    const error = await older.done.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: 'reader_replaced' });
    // Said once, in words a person can act on.
    expect((error as ApiError).message.match(/replaced/g)).toHaveLength(1);
  });
});
