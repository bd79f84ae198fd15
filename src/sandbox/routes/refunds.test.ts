import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessSandbox } from '../../../test/support/in-process.js';
import type { ReaderAction } from '../../domain/reader-protocol.js';
import { registerReader } from '../services/terminal-readers.js';

let s: Awaited<ReturnType<typeof inProcessSandbox>>;
beforeAll(async () => {
  s = await inProcessSandbox({ clock: '2030-01-15T10:00:00Z' });
});
afterAll(async () => s.close());

async function paid(amount = 1000, number = '4242424242424242') {
  const pm = (await s.call('POST', '/v1/payment-methods', { type: 'card', card: { number, exp_month: 12, exp_year: 2034, cvc: '123' } })).body;
  return (await s.call('POST', '/v1/payment-intents', { amount, currency: 'usd', payment_method_types: ['card'], confirm: true, payment_method_id: pm.id })).body;
}

const types = (id: string) =>
  s.sandbox.store.events.list(s.account.id, { limit: 100 }).data.filter((e) => e.data.payment_intent_id === id).map((e) => e.type).reverse();

describe('refunds', () => {
  it('refunds partially, then the rest; never more than captured', async () => {
    const pi = await paid();
    const first = await s.call('POST', '/v1/refunds', { payment_intent_id: pi.id, amount: 300, reason: 'requested_by_customer' });
    expect(first.body).toMatchObject({ object: 'refund', status: 'succeeded', amount: 300, payment_intent_id: pi.id, charge_id: pi.latest_charge_id, reason: 'requested_by_customer' });
    const tooMuch = await s.call('POST', '/v1/refunds', { payment_intent_id: pi.id, amount: 701 });
    expect(tooMuch).toMatchObject({ status: 400, body: { error: { code: 'parameter_invalid', param: 'amount' } } });
    const rest = await s.call('POST', '/v1/refunds', { payment_intent_id: pi.id });
    expect(rest.body.amount).toBe(700);
    expect((await s.call('GET', `/v1/charges/${pi.latest_charge_id}`)).body).toMatchObject({ amount_refunded: 1000, refunded: true });
    const none = await s.call('POST', '/v1/refunds', { payment_intent_id: pi.id });
    expect([none.status, none.body.error.code]).toEqual([409, 'invalid_state']);
    expect(none.body.error.message).toBe(`Cannot refund payment intent ${pi.id}: its status is succeeded and its charge ${pi.latest_charge_id} is already fully refunded.`);
    expect(types(pi.id).filter((t) => t === 'charge.refunded')).toHaveLength(2);
    const list = (await s.call('GET', `/v1/refunds?payment_intent_id=${pi.id}`)).body.data;
    expect(list.map((r: { amount: number }) => r.amount)).toEqual([700, 300]);
    expect((await s.call('GET', `/v1/refunds/${first.body.id}`)).body).toEqual(first.body);
  });

  it('bounds a partial authorization by what was captured', async () => {
    const pi = await paid(1000, '4000000000005555');
    const res = await s.call('POST', '/v1/refunds', { payment_intent_id: pi.id, amount: 501 });
    expect(res.body.error.param).toBe('amount');
    expect((await s.call('POST', '/v1/refunds', { payment_intent_id: pi.id })).body.amount).toBe(500);
  });

  it('a charge_id (Stripe\'s refunds name the charge) is an unknown parameter, saying what refunds take, not a missing payment_intent_id', async () => {
    const pi = await paid();
    const res = await s.call('POST', '/v1/refunds', { charge_id: pi.latest_charge_id });
    expect(res).toMatchObject({ status: 400, body: { error: { code: 'parameter_unknown', param: 'charge_id', message: 'Received unknown parameter: charge_id. This request takes: payment_intent_id, amount, reason, metadata.' } } });
    expect((await s.call('GET', `/v1/refunds?payment_intent_id=${pi.id}`)).body.data).toEqual([]);
  });

  it('refuses intents that did not succeed', async () => {
    const open = (await s.call('POST', '/v1/payment-intents', { amount: 100, currency: 'usd', payment_method_types: ['card'] })).body;
    expect((await s.call('POST', '/v1/refunds', { payment_intent_id: open.id })).status).toBe(409);
    expect((await s.call('POST', '/v1/refunds', { payment_intent_id: 'pi_nope' })).body.error.param).toBe('payment_intent_id');
  });
});

describe('same-day refunds of processor B in-person payments (spec section 8, rules 3 and 4)', () => {
  async function inPerson(processor: 'A' | 'B') {
    const reader = s.sandbox.store.db.transaction(() =>
      registerReader(s.context(), { serial_number: `SN${processor}${Math.random().toString(36).slice(2, 8)}`, processor, model: processor === 'A' ? 'a-handheld' : 'b-mobile', device_type: 'developer' }),
    );
    const pm = (await s.call('POST', '/v1/payment-methods', { type: 'card_present', terminal_reader_id: reader.id })).body;
    const pi = (await s.call('POST', '/v1/payment-intents', { amount: 900, currency: 'usd', payment_method_types: ['card_present'], confirm: true, payment_method_id: pm.id })).body;
    const done = (await s.call('POST', `/v1/test-helpers/terminal-readers/${reader.id}/present`, { outcome: 'approved' })).body;
    expect(done.status).toBe('succeeded');
    return { reader, pi };
  }

  it('fails clearly, naming the reader, when the reader is offline', async () => {
    const { reader, pi } = await inPerson('B');
    const before = s.counts();
    const res = await s.call('POST', '/v1/refunds', { payment_intent_id: pi.id });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('terminal_reader_offline');
    expect(res.body.error.message).toContain(reader.id);
    expect(s.counts()).toEqual(before);
  });

  it('goes through an online reader: charge.refund.pending, then charge.refunded once the reader confirms', async () => {
    const { reader, pi } = await inPerson('B');
    const pushed: ReaderAction[] = [];
    const disconnect = s.sandbox.readers.connect(s.account.id, reader.id, { send: (a) => pushed.push(a), drop: () => undefined });
    expect((await s.call('GET', `/v1/terminal-readers/${reader.id}`)).body.status).toBe('online');
    const res = await s.call('POST', '/v1/refunds', { payment_intent_id: pi.id, amount: 400 });
    expect(res.body).toMatchObject({ status: 'pending', terminal_reader_id: reader.id });
    expect(pushed).toEqual([{ type: 'refund_payment', refund_id: res.body.id, payment_intent_id: pi.id, amount: 400, currency: 'usd' }]);
    expect((await s.call('POST', '/v1/refunds', { payment_intent_id: pi.id, amount: 501 })).body.error.param).toBe('amount');
    const confirmed = await s.call('POST', `/v1/test-helpers/terminal-readers/${reader.id}/present`, { outcome: 'approved' });
    expect(confirmed.body).toMatchObject({ id: res.body.id, status: 'succeeded' });
    expect(types(pi.id).slice(-2)).toEqual(['charge.refund.pending', 'charge.refunded']);
    disconnect();
    expect((await s.call('GET', `/v1/terminal-readers/${reader.id}`)).body.status).toBe('offline');
  });

  it('a reader busy with a refund says so: the refund it waits for, not a payment to cancel', async () => {
    const { reader, pi } = await inPerson('B');
    const disconnect = s.sandbox.readers.connect(s.account.id, reader.id, { send: () => undefined, drop: () => undefined });
    try {
      const pending = (await s.call('POST', '/v1/refunds', { payment_intent_id: pi.id, amount: 100 })).body;
      expect(pending.status).toBe('pending');
      const pm = (await s.call('POST', '/v1/payment-methods', { type: 'card_present', terminal_reader_id: reader.id })).body;
      const payment = await s.call('POST', '/v1/payment-intents', { amount: 500, currency: 'usd', payment_method_types: ['card_present'], confirm: true, payment_method_id: pm.id });
      const refund = await s.call('POST', '/v1/refunds', { payment_intent_id: pi.id, amount: 100 });
      for (const busy of [payment, refund]) {
        expect(busy.status).toBe(409);
        expect(busy.body.error.code).toBe('terminal_reader_busy');
        expect(busy.body.error.message).toContain(`refund ${pending.id} of payment intent ${pi.id}`);
        expect(busy.body.error.message).not.toContain('cancel');
      }
    } finally {
      disconnect();
    }
  });

  it('is taken by the card that paid, whatever it is: a JCB card, or one short of funds; an outright decline refuses it', async () => {
    const outcomes: Array<[Record<string, unknown>, string]> = [
      [{ card_number: '3566002020360505' }, 'succeeded'], // JCB: processor B in person only
      [{ card_number: '4000000000005555' }, 'succeeded'], // partial authorization
      [{ outcome: 'insufficient_funds' }, 'succeeded'],
      [{ outcome: 'declined' }, 'failed'],
      [{ card_number: '4000000000001117' }, 'failed'], // HSA/FSA: never accepted
    ];
    for (const [presented, status] of outcomes) {
      const { reader, pi } = await inPerson('B');
      const disconnect = s.sandbox.readers.connect(s.account.id, reader.id, { send: () => undefined, drop: () => undefined });
      try {
        const res = await s.call('POST', '/v1/refunds', { payment_intent_id: pi.id });
        expect(res.body.status).toBe('pending');
        const settled = await s.call('POST', `/v1/test-helpers/terminal-readers/${reader.id}/present`, presented);
        expect(settled.body, JSON.stringify(presented)).toMatchObject({ id: res.body.id, status });
      } finally {
        disconnect();
      }
    }
  });

  // A refund is confirmed with the customer's card: a tip or an amount the card covers belongs to a payment, and is refused, not ignored.
  it('refuses a tip_amount or available_amount presented for a refund, naming it; the refund still waits for the card', async () => {
    const { reader, pi } = await inPerson('B');
    const disconnect = s.sandbox.readers.connect(s.account.id, reader.id, { send: () => undefined, drop: () => undefined });
    try {
      const refund = (await s.call('POST', '/v1/refunds', { payment_intent_id: pi.id })).body;
      for (const field of ['tip_amount', 'available_amount']) {
        const res = await s.call('POST', `/v1/test-helpers/terminal-readers/${reader.id}/present`, { [field]: 100 });
        expect({ status: res.status, param: res.body.error?.param }).toEqual({ status: 400, param: field });
        expect(res.body.error.message).toContain(`refund ${refund.id}`);
      }
      expect((await s.call('GET', `/v1/refunds/${refund.id}`)).body.status).toBe('pending');
      expect((await s.call('POST', `/v1/test-helpers/terminal-readers/${reader.id}/present`, { method: 'insert' })).body).toMatchObject({ id: refund.id, status: 'succeeded' });
    } finally {
      disconnect();
    }
  });

  it('needs no reader from the next day on, nor on processor A', async () => {
    const b = await inPerson('B');
    const a = await inPerson('A');
    expect((await s.call('POST', '/v1/refunds', { payment_intent_id: a.pi.id })).body.status).toBe('succeeded');
    await s.call('POST', '/v1/test-helpers/clock/advance', { to: '2030-01-16' });
    expect((await s.call('POST', '/v1/refunds', { payment_intent_id: b.pi.id })).body.status).toBe('succeeded');
  });
});
