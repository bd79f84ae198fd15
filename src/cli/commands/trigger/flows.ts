import type { EndpointName } from '../../../domain/endpoints.js';
import type { EventType } from '../../../domain/events.js';

/** What a flow can do: call the service step by step, each step's body open to overrides. */
export interface FlowRun {
  /**
   * Calls the endpoint with `body`, merged with the `--override` values of this step, and
   * records the id of what it created under the step's name.
   */
  step<T extends { id: string }>(step: string, endpoint: EndpointName, options?: { params?: Record<string, string>; body?: Record<string, unknown>; record?: boolean }): Promise<T>;
  /** Records the id of an object a step made along the way (a session's intent). */
  record(name: string, id: string): void;
  /** Like step, for an attempt the flow expects to be declined (402): records the intent kept. */
  declined(step: string, endpoint: EndpointName, options: { body: Record<string, unknown> }): Promise<void>;
  /** Pays a hosted checkout page as a customer would, with a test card. */
  payPage(url: string, card: { number: string; exp: string; cvc: string; zip: string }): Promise<void>;
  /** The sandbox clock's date, YYYY-MM-DD. */
  today(): Promise<string>;
  /** Advances the sandbox clock to 00:00Z of date, running what falls due. */
  advanceClock(date: string): Promise<void>;
}

export interface Flow {
  name: string;
  description: string;
  /** The events it causes, in the order they are emitted. */
  events: EventType[];
  /** Its steps' names: `--override step.field=value` names one. */
  steps: readonly string[];
  /** The step a bare `--override field=value` applies to. */
  primary: string;
  run(flow: FlowRun): Promise<void>;
}

const CARD = { number: '4242424242424242', exp_month: 12, exp_year: 2099, cvc: '123' };
const DECLINED_CARD = { ...CARD, number: '4000000000000002' };

const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

async function succeededIntent(flow: FlowRun): Promise<{ id: string }> {
  const method = await flow.step<{ id: string }>('payment_method', 'payment_methods.create', { body: { type: 'card', card: CARD } });
  return flow.step('payment_intent', 'payment_intents.create', {
    body: { amount: 2000, currency: 'usd', payment_method_types: ['card'], payment_method_id: method.id, confirm: true },
  });
}

/** A customer with an attached card and a monthly subscription whose first payment falls due tomorrow, then tomorrow. */
async function subscriptionPaid(flow: FlowRun, card: typeof CARD): Promise<void> {
  const customer = await flow.step('customer', 'customers.create', { body: { email: 'trigger@example.com' } });
  const method = await flow.step('payment_method', 'payment_methods.create', { body: { type: 'card', card } });
  await flow.step('attach', 'payment_methods.attach', { params: { id: method.id }, body: { customer_id: customer.id }, record: false });
  const anchor = nextDay(await flow.today());
  await flow.step('subscription', 'subscriptions.create', {
    body: { customer_id: customer.id, payment_method_id: method.id, price: 1500, currency: 'usd', billing_cycle_anchor: anchor, interval_unit: 'month', interval_count: 1 },
  });
  await flow.advanceClock(anchor);
}

/** The named fixture flows of `pay trigger`. */
export const FLOWS: readonly Flow[] = [
  {
    name: 'customer.created',
    description: 'Creates a customer',
    events: ['customer.created'],
    steps: ['customer'],
    primary: 'customer',
    run: async (flow) => void (await flow.step('customer', 'customers.create', { body: { email: 'trigger@example.com' } })),
  },
  {
    name: 'payment_intent.succeeded',
    description: 'Creates a card payment method and a 20.00 USD intent confirmed with it',
    events: ['payment_intent.created', 'payment_intent.succeeded', 'charge.succeeded'],
    steps: ['payment_method', 'payment_intent'],
    primary: 'payment_intent',
    run: async (flow) => void (await succeededIntent(flow)),
  },
  {
    name: 'payment_intent.payment_failed',
    description: 'Confirms an intent with a card that is declined (card_declined)',
    events: ['payment_intent.created', 'payment_intent.payment_failed', 'charge.failed'],
    steps: ['payment_method', 'payment_intent'],
    primary: 'payment_intent',
    run: async (flow) => {
      const method = await flow.step<{ id: string }>('payment_method', 'payment_methods.create', { body: { type: 'card', card: DECLINED_CARD } });
      await flow.declined('payment_intent', 'payment_intents.create', {
        body: { amount: 2000, currency: 'usd', payment_method_types: ['card'], payment_method_id: method.id, confirm: true },
      });
    },
  },
  {
    name: 'charge.refunded',
    description: 'Pays 20.00 USD by card, then refunds it in full',
    events: ['payment_intent.created', 'payment_intent.succeeded', 'charge.succeeded', 'charge.refunded'],
    steps: ['payment_method', 'payment_intent', 'refund'],
    primary: 'refund',
    run: async (flow) => {
      const intent = await succeededIntent(flow);
      await flow.step('refund', 'refunds.create', { body: { payment_intent_id: intent.id } });
    },
  },
  {
    name: 'subscription.active',
    description: 'Customer, attached card, monthly subscription from tomorrow; advances the clock to tomorrow: the first payment succeeds',
    events: ['customer.created', 'payment_method.attached', 'subscription.created', 'payment_intent.created', 'payment_intent.succeeded', 'charge.succeeded', 'subscription.updated'],
    steps: ['customer', 'payment_method', 'attach', 'subscription'],
    primary: 'subscription',
    run: (flow) => subscriptionPaid(flow, CARD),
  },
  {
    name: 'subscription.past_due',
    description: 'As subscription.active with a card that is declined: the first payment fails and the subscription is past_due',
    events: ['customer.created', 'payment_method.attached', 'subscription.created', 'payment_intent.created', 'payment_intent.payment_failed', 'charge.failed', 'subscription.updated'],
    steps: ['customer', 'payment_method', 'attach', 'subscription'],
    primary: 'subscription',
    run: (flow) => subscriptionPaid(flow, DECLINED_CARD),
  },
  {
    name: 'checkout.completed',
    description: 'Creates a 25.00 USD checkout session and pays its hosted page with a test card',
    events: ['payment_intent.created', 'payment_intent.succeeded', 'charge.succeeded', 'checkout_session.completed'],
    steps: ['checkout_session'],
    primary: 'checkout_session',
    run: async (flow) => {
      const session = await flow.step<{ id: string; checkout_session_url: string; payment_intent_id: string }>('checkout_session', 'checkout_sessions.create', {
        body: { amount: 2500, currency: 'usd', success_url: 'https://example.com/success', cancel_url: 'https://example.com/cancel' },
      });
      flow.record('payment_intent', session.payment_intent_id);
      await flow.payPage(session.checkout_session_url, { number: CARD.number, exp: '12 / 99', cvc: CARD.cvc, zip: '94107' });
    },
  },
];
