import { mergeMetadata, sameMetadata } from '../../domain/common.js';
import type { Customer } from '../../domain/customers.js';
import { ApiError, invalid, invalidState } from '../../domain/errors.js';
import type { PaymentIntent } from '../../domain/payment-intents.js';
import type { PaymentMethod } from '../../domain/payment-methods.js';
import { compareDates, dateOf, dueInstant, firstDueAfter } from '../../domain/schedule.js';
import {
  firstPaymentDate,
  statusAfterPayment,
  type Subscription,
  type SubscriptionCreate,
  type SubscriptionListQuery,
  type SubscriptionStatus,
  type SubscriptionUpdate,
} from '../../domain/subscriptions.js';
import { compareInstants } from '../../infra/time.js';
import type { ServiceContext } from './context.js';
import { createAndConfirmForSubscription, paidDirectlySince } from './payment-intents.js';

// The subscription state machine of spec section 3 with DESIGN section 5's decisions.
// next_payment_at is set exactly when an automatic attempt is scheduled (pending,
// active): the billing engine finds due work by it.

export function createSubscription(ctx: ServiceContext, input: SubscriptionCreate): Subscription {
  ctx.get<Customer>('customer', input.customer_id, 'customer_id');
  attachedMethod(ctx, input.payment_method_id, input.customer_id);
  const anchor = firstPaymentDate(ctx.today).safeParse(input.billing_cycle_anchor);
  if (!anchor.success) {
    throw invalid('billing_cycle_anchor', `Invalid billing_cycle_anchor: it is the date of the first payment and ${anchor.error.issues[0]!.message}.`);
  }
  const subscription = ctx.create<Subscription>('subscription', {
    customer_id: input.customer_id,
    payment_method_id: input.payment_method_id,
    price: input.price,
    currency: input.currency ?? 'usd',
    billing_cycle_anchor: input.billing_cycle_anchor,
    interval_unit: input.interval_unit,
    interval_count: input.interval_count,
    platform_fee_amount: input.platform_fee_amount ?? null,
    metadata: input.metadata ?? {},
    cancel_at: input.cancel_at ?? null,
    status: 'pending',
    next_payment_at: dueInstant(input.billing_cycle_anchor),
    latest_payment_intent_id: null,
    canceled_at: null,
  });
  ctx.emit('subscription.created', subscription);
  // An anchor of today is reached already: its payment runs now, not at the next advance.
  if (compareInstants(subscription.next_payment_at!, ctx.now) <= 0) return chargeScheduledPayment(ctx, subscription);
  return subscription;
}

export const getSubscription = (ctx: ServiceContext, id: string) => ctx.get<Subscription>('subscription', id);

export const listSubscriptions = (ctx: ServiceContext, query: SubscriptionListQuery) =>
  ctx.list<Subscription>('subscription', {
    limit: query.limit,
    starting_after: query.starting_after,
    filters: { status: query.status, customer_id: query.customer_id },
  });

/** Changes what may change; metadata is merged (mergeMetadata). */
export function updateSubscription(ctx: ServiceContext, id: string, input: SubscriptionUpdate): Subscription {
  const subscription = inStatus(ctx, id, ['pending', 'active', 'past_due', 'paused'], 'update');
  if (input.payment_method_id !== undefined) attachedMethod(ctx, input.payment_method_id, subscription.customer_id);
  if (input.platform_fee_amount != null && input.platform_fee_amount > subscription.price) {
    throw invalid('platform_fee_amount', `Invalid platform_fee_amount: must not exceed price (${subscription.price}).`);
  }
  if (input.cancel_at != null) {
    const after = compareDates(subscription.billing_cycle_anchor, ctx.today) > 0 ? subscription.billing_cycle_anchor : ctx.today;
    if (compareDates(input.cancel_at, after) <= 0) {
      throw invalid('cancel_at', `Invalid cancel_at: must be after ${after} (the later of billing_cycle_anchor and today); to stop now, cancel the subscription.`);
    }
  }
  const metadata = mergeMetadata(subscription.metadata, input.metadata);
  const updated = {
    ...subscription,
    payment_method_id: input.payment_method_id ?? subscription.payment_method_id,
    platform_fee_amount: input.platform_fee_amount === undefined ? subscription.platform_fee_amount : input.platform_fee_amount,
    cancel_at: input.cancel_at === undefined ? subscription.cancel_at : input.cancel_at,
    metadata,
  };
  // A new cancel_at can cut off the next payment or give it back. Every date due by today was run, so the next is the first after today.
  if (updated.status === 'active' && updated.cancel_at !== subscription.cancel_at) updated.next_payment_at = nextPaymentAfter(updated, ctx.today);
  // subscription.updated is for a subscription that changes (spec section 6): an update that changes nothing is not one.
  return sameUpdatableFields(subscription, updated) ? subscription : changed(ctx, updated);
}

function sameUpdatableFields(a: Subscription, b: Subscription): boolean {
  return a.payment_method_id === b.payment_method_id && a.platform_fee_amount === b.platform_fee_amount && a.cancel_at === b.cancel_at && sameMetadata(a.metadata, b.metadata);
}

/** active → paused: no payment is attempted until resumed. */
export function pauseSubscription(ctx: ServiceContext, id: string): Subscription {
  const subscription = inStatus(ctx, id, ['active'], 'pause');
  return changed(ctx, { ...subscription, status: 'paused', next_payment_at: null });
}

/** paused → active; due dates that passed while paused are skipped, never charged later. */
export function resumeSubscription(ctx: ServiceContext, id: string): Subscription {
  const subscription = inStatus(ctx, id, ['paused'], 'resume');
  return changed(ctx, { ...subscription, status: 'active', next_payment_at: nextPaymentAfter(subscription, ctx.today) });
}

/** Any status but canceled → canceled, permanently; a canceled one is a 409, as for intents. */
export function cancelSubscription(ctx: ServiceContext, id: string): Subscription {
  return cancelNow(ctx, inStatus(ctx, id, ['pending', 'active', 'past_due', 'paused'], 'cancel'));
}

/** Billing engine: cancel_at reached. */
export function cancelNow(ctx: ServiceContext, subscription: Subscription): Subscription {
  const canceled = ctx.update<Subscription>({ ...subscription, status: 'canceled', next_payment_at: null, canceled_at: ctx.now });
  ctx.emit('subscription.canceled', canceled);
  return canceled;
}

/**
 * past_due → a new payment attempt with the current payment method; the outcome follows
 * its intent. A decline is answered 402 but kept, like any declined attempt. Refused (409)
 * once the failed payment was paid directly: the period is paid, and another attempt
 * would charge it again, whoever asks (the batch, or one retry by hand).
 */
export function retrySubscription(ctx: ServiceContext, id: string): Subscription {
  const subscription = inStatus(ctx, id, ['past_due'], 'retry');
  const paid = paidDirectlySince(ctx, id);
  if (paid) {
    throw new ApiError(409, 'invalid_state', `Cannot retry subscription ${id}: its status is past_due, and its failed payment ${paid.id} has been paid directly since (which leaves a subscription past_due): a retry would charge the customer a second time for that period. To bill the periods after it, cancel this subscription and create a new one.`);
  }
  const { subscription: after, intent } = attemptPayment(ctx, subscription, ctx.today);
  if (intent.status === 'succeeded') return after;
  const error = intent.last_payment_error;
  throw new ApiError(402, error?.code ?? 'card_declined', error?.message ?? 'The payment was declined.', {
    commit: true,
    extra: { payment_intent: intent, subscription: after },
  });
}

/** Billing engine: the payment due at next_payment_at. */
export function chargeScheduledPayment(ctx: ServiceContext, subscription: Subscription): Subscription {
  return attemptPayment(ctx, subscription, dateOf(subscription.next_payment_at!)).subscription;
}

/**
 * One generated payment intent and the outcome mapping of spec section 3; on success the
 * next automatic payment is the first due date after `paidFor`.
 */
function attemptPayment(ctx: ServiceContext, subscription: Subscription, paidFor: string): { subscription: Subscription; intent: PaymentIntent } {
  const intent = createAndConfirmForSubscription(ctx, {
    amount: subscription.price,
    currency: subscription.currency,
    customer_id: subscription.customer_id,
    payment_method_id: subscription.payment_method_id,
    subscription_id: subscription.id,
    metadata: subscription.metadata,
  });
  const status = statusAfterPayment(intent.status);
  const after = changed(ctx, {
    ...subscription,
    status,
    next_payment_at: status === 'active' ? nextPaymentAfter(subscription, paidFor) : null,
    latest_payment_intent_id: intent.id,
  });
  return { subscription: after, intent };
}

/**
 * The instant of the first due date strictly after `date`, always from the anchor; none
 * when that date is cancel_at or later (the subscription cancels before any payment due that day).
 */
function nextPaymentAfter(s: Subscription, date: string): string | null {
  const due = firstDueAfter(s.billing_cycle_anchor, s.interval_unit, s.interval_count, date);
  return s.cancel_at !== null && compareDates(due, s.cancel_at) >= 0 ? null : dueInstant(due);
}

function changed(ctx: ServiceContext, subscription: Subscription): Subscription {
  const updated = ctx.update(subscription);
  ctx.emit('subscription.updated', updated);
  return updated;
}

function inStatus(ctx: ServiceContext, id: string, allowed: SubscriptionStatus[], action: string): Subscription {
  const subscription = getSubscription(ctx, id);
  if (!allowed.includes(subscription.status)) throw invalidState('subscription', id, subscription.status, action);
  return subscription;
}

/** Spec section 4 rule 4: the payment method must be attached to the subscription's customer. */
function attachedMethod(ctx: ServiceContext, id: string, customerId: string): PaymentMethod {
  const method = ctx.get<PaymentMethod>('payment_method', id, 'payment_method_id');
  // Another customer's card cannot be attached to this one (409): attaching is no remedy then.
  if (method.customer_id !== null && method.customer_id !== customerId) {
    throw invalid('payment_method_id', `Invalid payment_method_id: ${id} is attached to customer ${method.customer_id}, and a payment method belongs to one customer; create one for ${customerId} (pay payment-methods create --customer ${customerId}).`);
  }
  if (method.customer_id !== customerId) {
    throw invalid('payment_method_id', `Invalid payment_method_id: ${id} is not attached to customer ${customerId}; attach it first (pay payment-methods attach ${id} --customer ${customerId}).`);
  }
  if (method.type !== 'card') {
    throw invalid('payment_method_id', `Invalid payment_method_id: subscriptions charge a stored card; ${id} is a ${method.type} payment method.`);
  }
  return method;
}
