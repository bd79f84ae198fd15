import { expiryPassed } from '../../domain/cards.js';
import { type BaseObject, DEFAULT_LIST_LIMIT, mergeMetadata, sameMetadata } from '../../domain/common.js';
import type { Customer } from '../../domain/customers.js';
import { ApiError, invalid, invalidState, missing } from '../../domain/errors.js';
import type {
  CaptureMethod,
  CardPresentDetails,
  Charge,
  PaymentIntent,
  PaymentIntentCancel,
  PaymentIntentCapture,
  PaymentIntentConfirm,
  PaymentIntentCreate,
  PaymentIntentListQuery,
  PaymentIntentStatus,
  PaymentIntentUpdate,
} from '../../domain/payment-intents.js';
import type { PaymentMethodType } from '../../domain/payment-methods.js';
import type { TerminalReader } from '../../domain/terminal-readers.js';
import { type ChargeResult, chargeOutcomeByKey, type Decline } from '../../domain/test-cards.js';
import type { ServiceContext } from './context.js';
import { type StoredPaymentMethod, storedPaymentMethod } from './payment-methods.js';
import { getReader, pushToReader, readerBusy, setReaderAction } from './terminal-readers.js';

// Spec section 3 and DESIGN section 5. A payment attempt ends in succeeded (automatic
// capture), requires_capture (manual), requires_action (card_present, sent to the reader)
// or back in requires_payment_method with last_payment_error.

const CONFIRMABLE: readonly PaymentIntentStatus[] = ['requires_payment_method', 'requires_confirmation'];
const CANCELABLE: readonly PaymentIntentStatus[] = ['requires_payment_method', 'requires_confirmation', 'requires_capture', 'requires_action'];

/** Every intent event carries payment_intent_id, and subscription_id for subscription payments. */
export function intentEventData(intent: PaymentIntent): Record<string, unknown> {
  return { payment_intent_id: intent.id, ...(intent.subscription_id === null ? {} : { subscription_id: intent.subscription_id }) };
}

interface NewIntent {
  amount: number;
  currency: string;
  payment_method_types: PaymentMethodType[];
  capture_method: CaptureMethod;
  confirm: boolean;
  payment_method?: StoredPaymentMethod | undefined;
  customer_id?: string | undefined;
  subscription_id?: string | undefined;
  description?: string | undefined;
  metadata?: Record<string, string> | undefined;
}

/** An intent paid with a customer's payment method is that customer's, whether the method was given at creation or at confirmation. */
const customerPaying = (customerId: string | null | undefined, pm: StoredPaymentMethod | undefined) => customerId ?? pm?.customer_id ?? null;

/** Inserts the intent with its event; callers have checked that its customer_id names a customer. */
function insertIntent(ctx: ServiceContext, input: NewIntent): PaymentIntent {
  const pm = input.payment_method;
  const customerId = customerPaying(input.customer_id, pm);
  if (pm) checkMethod(ctx, { payment_method_types: input.payment_method_types, capture_method: input.capture_method, customer_id: customerId }, pm);
  const intent = ctx.create<PaymentIntent>('payment_intent', {
    status: pm ? 'requires_confirmation' : 'requires_payment_method',
    amount: input.amount,
    amount_received: 0,
    amount_capturable: 0,
    tip_amount: 0,
    currency: input.currency,
    payment_method_types: input.payment_method_types,
    payment_method_id: pm?.id ?? null,
    confirm: input.confirm,
    capture_method: input.capture_method,
    customer_id: customerId,
    subscription_id: input.subscription_id ?? null,
    latest_charge_id: null,
    last_payment_error: null,
    next_action: null,
    description: input.description ?? null,
    canceled_at: null,
    cancellation_reason: null,
    metadata: input.metadata ?? {},
  });
  ctx.emit('payment_intent.created', intent, intentEventData(intent));
  return intent;
}

/** The method must be of an allowed type, of the intent's customer, and (in person) its reader able to do the capture method. */
function checkMethod(ctx: ServiceContext, intent: Pick<PaymentIntent, 'payment_method_types' | 'capture_method' | 'customer_id'>, pm: StoredPaymentMethod): void {
  if (!intent.payment_method_types.includes(pm.type)) {
    throw invalid('payment_method_id', `Invalid payment_method_id: ${pm.id} is a ${pm.type} payment method, but payment_method_types is [${intent.payment_method_types.join(', ')}].`);
  }
  if (pm.customer_id !== null && intent.customer_id !== null && pm.customer_id !== intent.customer_id) {
    throw invalid('payment_method_id', `Invalid payment_method_id: ${pm.id} is attached to customer ${pm.customer_id}, not ${intent.customer_id}.`);
  }
  if (pm.type === 'card_present' && intent.capture_method === 'manual') {
    const reader = getReader(ctx, pm.terminal_reader_id!, 'payment_method_id');
    // Spec section 8, rule 5.
    if (reader.processor === 'B') {
      throw invalid('capture_method', `Invalid capture_method: manual capture is not supported for in-person payments on processor B readers (${reader.id}); use automatic.`);
    }
  }
}

export function createPaymentIntent(ctx: ServiceContext, body: PaymentIntentCreate): PaymentIntent {
  const pm = body.payment_method_id === undefined ? undefined : storedPaymentMethod(ctx, body.payment_method_id, 'payment_method_id');
  if (body.customer_id !== undefined) ctx.get<Customer>('customer', body.customer_id, 'customer_id');
  const intent = insertIntent(ctx, {
    amount: body.amount,
    currency: body.currency,
    payment_method_types: body.payment_method_types,
    capture_method: body.capture_method ?? 'automatic',
    confirm: body.confirm ?? false,
    payment_method: pm,
    customer_id: body.customer_id,
    description: body.description,
    metadata: body.metadata,
  });
  return body.confirm ? declinedThrows(attempt(ctx, intent, pm!)) : intent;
}

/**
 * Creates and confirms a subscription's payment with its stored method; never throws on a
 * decline. Its customer is not looked up again: it was checked when the subscription was
 * created, it cannot change, and customers are never deleted.
 */
export function createAndConfirmForSubscription(
  ctx: ServiceContext,
  input: { amount: number; currency: string; customer_id: string; payment_method_id: string; subscription_id: string; metadata?: Record<string, string> },
): PaymentIntent {
  const pm = storedPaymentMethod(ctx, input.payment_method_id, 'payment_method_id');
  const intent = insertIntent(ctx, {
    amount: input.amount,
    currency: input.currency,
    payment_method_types: [pm.type],
    capture_method: 'automatic',
    confirm: true,
    payment_method: pm,
    customer_id: input.customer_id,
    subscription_id: input.subscription_id,
    metadata: input.metadata,
  });
  return attempt(ctx, intent, pm).intent;
}

export function confirmPaymentIntent(ctx: ServiceContext, id: string, body: PaymentIntentConfirm, by: Caller = 'api'): PaymentIntent {
  const intent = getPaymentIntent(ctx, id);
  requireStatus(intent, CONFIRMABLE, 'confirm');
  if (by === 'api') refuseOpenSessionIntent(ctx, intent, 'confirm');
  refuseSupersededPayment(ctx, intent);
  const pmId = body.payment_method_id ?? intent.payment_method_id;
  if (pmId === null) throw missing('payment_method_id', `Missing required parameter: payment_method_id. Payment intent ${intent.id} has no payment method to confirm with.`);
  const pm = storedPaymentMethod(ctx, pmId, 'payment_method_id');
  checkMethod(ctx, intent, pm);
  return declinedThrows(attempt(ctx, { ...intent, customer_id: customerPaying(intent.customer_id, pm) }, pm));
}

interface Attempt {
  intent: PaymentIntent;
  decline?: Decline;
}

/** A declined attempt is kept (status requires_payment_method) and answered 402 with the intent. */
function declinedThrows({ intent, decline }: Attempt): PaymentIntent {
  if (decline) throw new ApiError(402, decline.code, decline.message, { commit: true, extra: { payment_intent: intent } });
  return intent;
}

function attempt(ctx: ServiceContext, intent: PaymentIntent, pm: StoredPaymentMethod): Attempt {
  if (pm.type === 'card_present') return { intent: sendToReader(ctx, intent, pm) };
  const card = pm.card!;
  // A stored card may have expired since it was saved (the test clock moves).
  const result: ChargeResult = expiryPassed(card.exp_month, card.exp_year, ctx.today)
    ? chargeOutcomeByKey('expired_card', { kind: 'online' }, intent.amount)
    : chargeOutcomeByKey(pm.outcome!, { kind: 'online' }, intent.amount);
  return settle(ctx, { ...intent, payment_method_id: pm.id }, pm, result, { tip: 0, reader: null, card_present: null });
}

/** Spec section 3: confirming a card_present intent sends it to the terminal. */
function sendToReader(ctx: ServiceContext, intent: PaymentIntent, pm: StoredPaymentMethod): PaymentIntent {
  const reader = getReader(ctx, pm.terminal_reader_id!, 'payment_method_id');
  const { action } = reader;
  if (action !== null && (action.type !== 'process_payment_intent' || action.payment_intent_id !== intent.id)) throw readerBusy({ ...reader, action });
  setReaderAction(ctx, reader, { type: 'process_payment_intent', payment_intent_id: intent.id });
  const waiting = ctx.update<PaymentIntent>({
    ...intent,
    status: 'requires_action',
    payment_method_id: pm.id,
    next_action: { type: 'terminal_reader', terminal_reader_id: reader.id },
  });
  ctx.emit('payment_intent.requires_action', waiting, intentEventData(waiting));
  pushToReader(ctx, reader.id, { type: 'process_payment_intent', payment_intent_id: waiting.id, amount: waiting.amount, currency: waiting.currency });
  return waiting;
}

/**
 * Records the outcome of one attempt: a charge (failed, or succeeded and captured or
 * authorized) and the intent's new state, with their events.
 */
function settle(ctx: ServiceContext, intent: PaymentIntent, pm: StoredPaymentMethod, result: ChargeResult, opts: { reader: TerminalReader | null } & Presented): Attempt {
  const total = intent.amount + opts.tip;
  const manual = intent.capture_method === 'manual';
  const charge = ctx.create<Charge>('charge', {
    status: result.ok ? 'succeeded' : 'failed',
    amount: total,
    amount_authorized: result.ok ? result.captured : 0,
    amount_captured: result.ok && !manual ? result.captured : 0,
    amount_refunded: 0,
    captured: result.ok && !manual,
    refunded: false,
    currency: intent.currency,
    payment_intent_id: intent.id,
    payment_method_id: pm.id,
    customer_id: intent.customer_id,
    subscription_id: intent.subscription_id,
    failure_code: result.ok ? null : result.code,
    failure_message: result.ok ? null : result.message,
    payment_method_details: {
      type: pm.type,
      card: pm.card,
      terminal_reader_id: opts.reader?.id ?? null,
      processor: opts.reader?.processor ?? null,
      card_present: opts.card_present,
    },
  });
  const data = intentEventData(intent);
  const base = { ...intent, latest_charge_id: charge.id, next_action: null };
  if (!result.ok) {
    const failed = ctx.update<PaymentIntent>({
      ...base,
      status: 'requires_payment_method',
      payment_method_id: null,
      last_payment_error: { type: 'card_error', code: result.code, message: result.message, payment_method_id: pm.id, charge_id: charge.id },
    });
    ctx.emit('payment_intent.payment_failed', failed, data);
    ctx.emit('charge.failed', charge, data);
    return { intent: failed, decline: result };
  }
  const tip = tipCollected(intent.amount, opts.tip, result.captured);
  if (manual) {
    const authorized = ctx.update<PaymentIntent>({ ...base, status: 'requires_capture', amount_capturable: result.captured, tip_amount: tip, last_payment_error: null });
    ctx.emit('payment_intent.amount_capturable_updated', authorized, data);
    ctx.emit('charge.succeeded', charge, data);
    return { intent: authorized };
  }
  const succeeded = ctx.update<PaymentIntent>({ ...base, status: 'succeeded', amount_received: result.captured, tip_amount: tip, last_payment_error: null });
  ctx.emit('payment_intent.succeeded', succeeded, data);
  ctx.emit('charge.succeeded', charge, data);
  return { intent: succeeded };
}

/** The tip is what was collected beyond the amount (spec section 4 rule 8): none, or less, when less than amount + tip is taken. */
const tipCollected = (amount: number, tip: number, taken: number) => Math.max(0, Math.min(tip, taken - amount));

/** What the customer did at the reader: a tip added, and the card presented. */
export interface Presented {
  tip: number;
  card_present: CardPresentDetails | null;
}

/** The reader's answer for the intent it is processing (a card presented, or a decline). */
export function settleOnReader(ctx: ServiceContext, reader: TerminalReader, intentId: string, result: ChargeResult, presented: Presented): PaymentIntent {
  const intent = getPaymentIntent(ctx, intentId);
  setReaderAction(ctx, reader, null);
  requireStatus(intent, ['requires_action'], 'complete the reader payment of');
  const pm = storedPaymentMethod(ctx, intent.payment_method_id!);
  return settle(ctx, intent, pm, result, { ...presented, reader }).intent;
}

export function capturePaymentIntent(ctx: ServiceContext, id: string, body: PaymentIntentCapture): PaymentIntent {
  const intent = getPaymentIntent(ctx, id);
  if (intent.status === 'succeeded' && intent.capture_method === 'manual') {
    throw new ApiError(409, 'invalid_state', `Cannot capture payment intent ${intent.id}: its status is succeeded, it was captured already (a payment intent is captured only once, even for less than was authorized).`);
  }
  requireStatus(intent, ['requires_capture'], 'capture');
  const amount = body.amount_to_capture ?? intent.amount_capturable;
  if (amount > intent.amount_capturable) {
    throw invalid('amount_to_capture', `Invalid amount_to_capture: it must be at most the authorized amount, ${intent.amount_capturable}.`);
  }
  const charge = ctx.get<Charge>('charge', intent.latest_charge_id!);
  const captured = ctx.update<Charge>({ ...charge, captured: true, amount_captured: amount });
  const succeeded = ctx.update<PaymentIntent>({ ...intent, status: 'succeeded', amount_received: amount, amount_capturable: 0, tip_amount: tipCollected(intent.amount, intent.tip_amount, amount) });
  const data = intentEventData(succeeded);
  ctx.emit('payment_intent.succeeded', succeeded, data);
  ctx.emit('charge.captured', captured, data);
  return succeeded;
}

export function cancelPaymentIntent(ctx: ServiceContext, id: string, body: PaymentIntentCancel, by: Caller = 'api'): PaymentIntent {
  const intent = getPaymentIntent(ctx, id);
  // Spec section 8, rule 2: only before processing or succeeded.
  requireStatus(intent, CANCELABLE, 'cancel');
  if (by === 'api') refuseOpenSessionIntent(ctx, intent, 'cancel');
  const data = intentEventData(intent);
  if (intent.status === 'requires_capture') {
    // Held funds are reversed: the authorization is released.
    const charge = ctx.get<Charge>('charge', intent.latest_charge_id!);
    ctx.emit('charge.canceled', ctx.update<Charge>({ ...charge, status: 'canceled' }), data);
  }
  if (intent.status === 'requires_action' && intent.next_action) {
    const reader = getReader(ctx, intent.next_action.terminal_reader_id);
    if (reader.action?.payment_intent_id === intent.id) setReaderAction(ctx, reader, null);
    pushToReader(ctx, reader.id, { type: 'cancel_action', payment_intent_id: intent.id, reason: 'the payment intent was canceled' });
  }
  const canceled = ctx.update<PaymentIntent>({
    ...intent,
    status: 'canceled',
    amount_capturable: 0,
    next_action: null,
    canceled_at: ctx.now,
    cancellation_reason: body.cancellation_reason ?? null,
  });
  ctx.emit('payment_intent.canceled', canceled, data);
  return canceled;
}

/** Spec section 4: update, used when the amount changes; only before confirmation. */
export function updatePaymentIntent(ctx: ServiceContext, id: string, body: PaymentIntentUpdate): PaymentIntent {
  const intent = getPaymentIntent(ctx, id);
  requireStatus(intent, CONFIRMABLE, 'update');
  refuseOpenSessionIntent(ctx, intent, 'update');
  const next = {
    ...intent,
    amount: body.amount ?? intent.amount,
    description: body.description ?? intent.description,
    metadata: mergeMetadata(intent.metadata, body.metadata),
  };
  // As for subscriptions: an update that changes nothing is no change, and emits no payment_intent.updated.
  if (next.amount === intent.amount && next.description === intent.description && sameMetadata(next.metadata, intent.metadata)) return intent;
  const updated = ctx.update<PaymentIntent>(next);
  ctx.emit('payment_intent.updated', updated, intentEventData(updated));
  return updated;
}

/** Who acts on an intent: a request to the API, or the checkout session that owns it (its page, its expiry). */
export type Caller = 'api' | 'checkout_session';

/**
 * An open checkout session's intent is paid on the session's page and canceled when it
 * expires: changed, confirmed or canceled through the API, the page would show one amount
 * and charge another, or stay open for an intent that can no longer be paid.
 */
function refuseOpenSessionIntent(ctx: ServiceContext, intent: PaymentIntent, action: string): void {
  const session = ctx.list<BaseObject>('checkout_session', { limit: 1, filters: { payment_intent_id: intent.id, status: 'open' } }).data[0];
  if (session) {
    throw new ApiError(409, 'invalid_state', `Cannot ${action} payment intent ${intent.id}: its status is ${intent.status}, and it belongs to checkout session ${session.id}, which is open. The customer pays it on the session's page (checkout_session_url), and it is canceled when the session expires; for another amount, create a new checkout session.`);
  }
}

/**
 * A subscription's failed payment is superseded once a later payment of the subscription
 * succeeded (a retry pays for the period it was due in), or once an earlier failed payment
 * of the same period was paid directly (the subscription stays past_due, spec section 3
 * rule 2, and its retries are attempts at that period still): confirmed then, it would
 * charge the customer a second time for that period.
 */
function refuseSupersededPayment(ctx: ServiceContext, intent: PaymentIntent): void {
  if (intent.subscription_id === null) return;
  let later = true;
  // Newest first: the subscription's later payments come before this one.
  for (const other of ctx.list<PaymentIntent>('payment_intent', { limit: Number.MAX_SAFE_INTEGER, filters: { subscription_id: intent.subscription_id } }).data) {
    if (other.id === intent.id) {
      later = false;
      continue;
    }
    if (other.status !== 'succeeded') continue;
    if (later) {
      throw new ApiError(409, 'invalid_state', `Cannot confirm payment intent ${intent.id}: its status is ${intent.status}, and a later payment of subscription ${intent.subscription_id}, ${other.id}, has succeeded since: confirming this one would charge the customer a second time.`);
    }
    // Only a direct confirm gives a generated payment a failed charge before its success;
    // one that succeeded as it was made paid an earlier period, which ends this one's run.
    if (!paidAfterFailing(ctx, other)) return;
    throw new ApiError(409, 'invalid_state', `Cannot confirm payment intent ${intent.id}: its status is ${intent.status}, and ${other.id}, a failed payment of subscription ${intent.subscription_id} for the same period, has been paid since: confirming this one would charge the customer a second time.`);
  }
}

/**
 * The failed payment of a past_due subscription's run that was since paid directly (which
 * leaves it past_due, spec section 3 rule 2), if one was: its newest succeeded payment,
 * when that is its latest attempt or had a failed charge before its success. While it stays
 * past_due nothing else can be: a retry that succeeds makes it active, and a payment that
 * succeeded as it was made paid an earlier period.
 */
export function paidDirectlySince(ctx: ServiceContext, subscriptionId: string): PaymentIntent | undefined {
  const intents = ctx.list<PaymentIntent>('payment_intent', { limit: Number.MAX_SAFE_INTEGER, filters: { subscription_id: subscriptionId } }).data;
  const paid = intents.find((intent) => intent.status === 'succeeded');
  return paid && (paid === intents[0] || paidAfterFailing(ctx, paid)) ? paid : undefined;
}

const paidAfterFailing = (ctx: ServiceContext, intent: PaymentIntent) =>
  ctx.list<Charge>('charge', { limit: Number.MAX_SAFE_INTEGER, filters: { payment_intent_id: intent.id } }).data.some((charge) => charge.status === 'failed');

function requireStatus(intent: PaymentIntent, allowed: readonly PaymentIntentStatus[], action: string): void {
  if (!allowed.includes(intent.status)) throw invalidState('payment intent', intent.id, intent.status, action);
}

export const getPaymentIntent = (ctx: ServiceContext, id: string, param = 'id') => ctx.get<PaymentIntent>('payment_intent', id, param);

export const listPaymentIntents = (ctx: ServiceContext, query: PaymentIntentListQuery) =>
  ctx.list<PaymentIntent>('payment_intent', {
    limit: query.limit ?? (query.subscription_id === undefined ? DEFAULT_LIST_LIMIT : Number.MAX_SAFE_INTEGER),
    starting_after: query.starting_after,
    filters: { subscription_id: query.subscription_id, customer_id: query.customer_id, status: query.status },
  });
