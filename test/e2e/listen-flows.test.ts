import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Received, Receiver } from '../support/receiver.js';
import { type PayProcess, type SandboxHandle, startSandbox } from './harness.js';

let sb: SandboxHandle;
let listener: PayProcess;
const app = new Receiver();
beforeAll(async () => {
  sb = await startSandbox({ clock: '2030-01-15' });
  await app.start();
  listener = sb.spawn(['webhooks', 'listen', '--forward-to', app.url(), '--print-secret']);
  app.secret = (await listener.line(/^Ready!/)).match(/signing secret (whsec_\S+)/)![1];
});
afterAll(async () => {
  listener?.signal('SIGINT');
  await listener?.exited();
  await app.stop();
  await sb?.stop();
});

/** What the app has received about these objects (any of their ids in the payload). */
function receivedAbout(ids: string[]): Received[] {
  return app.received.filter((r) => ids.some((id) => r.body.includes(id)));
}

describe('events of whole flows at the receiver', () => {
  it('spec section 6 rule 2: a customer with a payment method and a subscription gives all seven events, signed', async () => {
    const customer = (await sb.http('POST', '/v1/customers', { email: 'rule2@example.com' })).body;
    const card = { number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123' };
    const method = (await sb.http('POST', '/v1/payment-methods', { type: 'card', card })).body;
    expect((await sb.http('PUT', `/v1/payment-methods/${method.id}/attach`, { customer_id: customer.id })).status).toBe(200);
    const subscription = (await sb.http('POST', '/v1/subscriptions', {
      customer_id: customer.id,
      payment_method_id: method.id,
      price: 1500,
      currency: 'usd',
      billing_cycle_anchor: '2030-01-16',
      interval_unit: 'month',
      interval_count: 1,
    })).body;
    expect(subscription.status).toBe('pending');
    await sb.http('POST', '/v1/test-helpers/clock/advance', { to: '2030-01-16' });

    const expected = ['customer.created', 'payment_method.attached', 'subscription.created', 'payment_intent.created', 'payment_intent.succeeded', 'charge.succeeded', 'subscription.updated'];
    await app.waitFor(() => expected.every((type) => receivedAbout([customer.id, subscription.id]).some((r) => r.event.type === type)), 15_000, 'the seven events');
    const received = receivedAbout([customer.id, subscription.id]);
    expect(received.every((r) => r.verified === true)).toBe(true);
    const byType = new Map(received.map((r) => [r.event.type as string, r.event]));
    expect([...byType.keys()].sort()).toEqual([...expected].sort());

    // Rule 1: the intent's events carry subscription_id; and payment_intent_id.
    const intent = byType.get('payment_intent.succeeded')!.data.object;
    expect(intent).toMatchObject({ status: 'succeeded', subscription_id: subscription.id });
    for (const type of ['payment_intent.created', 'payment_intent.succeeded', 'charge.succeeded']) {
      expect(byType.get(type)!.data, type).toMatchObject({ payment_intent_id: intent.id, subscription_id: subscription.id });
    }
    // subscription.updated on becoming active carries next_payment_at.
    expect(byType.get('subscription.updated')!.data.object).toMatchObject({ id: subscription.id, status: 'active', next_payment_at: '2030-02-16T00:00:00Z' });
    expect(byType.get('payment_method.attached')!.data.object).toMatchObject({ id: method.id, customer_id: customer.id });
    // The listen output named each of them.
    for (const r of received) await listener.line(new RegExp(`^--> ${r.event.type.replace(/\./g, '\\.')} \\[${r.id}\\]$`));
  });

  const flows: Array<[string, string[]]> = [
    ['customer.created', ['customer.created']],
    ['payment_intent.succeeded', ['payment_intent.created', 'payment_intent.succeeded', 'charge.succeeded']],
    ['payment_intent.payment_failed', ['payment_intent.created', 'payment_intent.payment_failed', 'charge.failed']],
    ['charge.refunded', ['payment_intent.created', 'payment_intent.succeeded', 'charge.succeeded', 'charge.refunded']],
    ['subscription.active', ['customer.created', 'payment_method.attached', 'subscription.created', 'payment_intent.created', 'payment_intent.succeeded', 'charge.succeeded', 'subscription.updated']],
    ['subscription.past_due', ['customer.created', 'payment_method.attached', 'subscription.created', 'payment_intent.created', 'payment_intent.payment_failed', 'charge.failed', 'subscription.updated']],
    ['checkout.completed', ['payment_intent.created', 'payment_intent.succeeded', 'charge.succeeded', 'checkout_session.completed']],
  ];
  for (const [flow, types] of flows) {
    it(`pay trigger ${flow} prints what it created, and its events reach the app`, async () => {
      const result = await sb.json(['trigger', flow]);
      expect(result.flow).toBe(flow);
      expect([...result.events].sort()).toEqual([...types].sort());
      const ids = Object.values(result.created) as string[];
      expect(ids.length).toBeGreaterThan(0);
      await app.waitFor(() => types.every((type) => receivedAbout(ids).some((r) => r.event.type === type)), 15_000, `the events of ${flow}`);
      expect(receivedAbout(ids).every((r) => r.verified === true)).toBe(true);
    });
  }

  it('pay trigger sets fields with --override, on the main step or a named one', async () => {
    const paid = await sb.json(['trigger', 'payment_intent.succeeded', '--override', 'amount=4999', '--override', 'currency=eur']);
    const intent = (await sb.http('GET', `/v1/payment-intents/${paid.created.payment_intent}`)).body;
    expect(intent).toMatchObject({ amount: 4999, currency: 'eur', status: 'succeeded' });
    const poor = await sb.json(['trigger', 'payment_intent.payment_failed', '--override', 'payment_method.card.number=4000000000009995']);
    const failed = (await sb.http('GET', `/v1/payment-intents/${poor.created.payment_intent}`)).body;
    expect(failed.last_payment_error).toMatchObject({ code: 'insufficient_funds' });
    const subscription = await sb.json(['trigger', 'subscription.active', '--override', 'price=2500']);
    expect((await sb.http('GET', `/v1/subscriptions/${subscription.created.subscription}`)).body).toMatchObject({ price: 2500, status: 'active' });
    // Checked against the step's rule before any step runs.
    const bad = await sb.pay(['trigger', 'payment_intent.succeeded', '--override', 'amount=-5']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/Invalid --override payment_intent\.amount: must be/);
  });

  it('pay trigger --list names every flow and its events', async () => {
    const list = (await sb.json(['trigger', '--list'])).data;
    expect(list.map((f: { name: string }) => f.name)).toEqual(flows.map(([name]) => name));
    const unknown = await sb.pay(['trigger', 'payment_intent.succeded']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain("Unknown flow 'payment_intent.succeded'");
  });
});
