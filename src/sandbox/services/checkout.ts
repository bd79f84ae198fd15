import { type CheckoutForm, type CheckoutSession, type CheckoutSessionCreate, type FormIssue, type PaymentLink, type PaymentLinkCreate, readCheckoutForm } from '../../domain/checkout.js';
import type { ListQuery } from '../../domain/common.js';
import { expiryPassed } from '../../domain/cards.js';
import { ApiError } from '../../domain/errors.js';
import type { PaymentMethodCreate } from '../../domain/payment-methods.js';
import { addMs, compareInstants, DAY_MS, earliest } from '../../infra/time.js';
import type { DueWork } from './due-work.js';
import type { ServiceContext } from './context.js';
import { cancelPaymentIntent, confirmPaymentIntent, createPaymentIntent, getPaymentIntent } from './payment-intents.js';
import { createPaymentMethod } from './payment-methods.js';

/** How long a checkout session stays open (test-clock time). */
export const SESSION_TTL_MS = DAY_MS;

/**
 * A session owns one payment intent, created with it; the hosted page at
 * checkout_session_url (on `origin`, the sandbox's address as the caller reached it) pays it.
 */
export function createCheckoutSession(
  ctx: ServiceContext,
  body: Omit<CheckoutSessionCreate, 'success_url' | 'cancel_url'> & { success_url: string | null; cancel_url: string | null; payment_link_id?: string },
  origin: string,
): CheckoutSession {
  const intent = createPaymentIntent(ctx, {
    amount: body.amount,
    currency: body.currency,
    payment_method_types: ['card'],
    customer_id: body.customer_id,
    metadata: body.metadata,
  });
  const session = ctx.create<CheckoutSession>('checkout_session', {
    status: 'open',
    payment_status: 'unpaid',
    amount: body.amount,
    currency: body.currency,
    payment_intent_id: intent.id,
    checkout_session_url: '',
    success_url: body.success_url,
    cancel_url: body.cancel_url,
    customer_id: body.customer_id ?? null,
    payment_link_id: body.payment_link_id ?? null,
    expires_at: addMs(ctx.now, SESSION_TTL_MS),
    metadata: body.metadata ?? {},
    description: body.description ?? null,
    merchant_name: body.merchant_name ?? null,
  });
  // The URL names the session, whose id exists only once it is created.
  return ctx.update<CheckoutSession>({ ...session, checkout_session_url: `${origin}/checkout/${session.id}` });
}

export const getCheckoutSession = (ctx: ServiceContext, id: string) => ctx.get<CheckoutSession>('checkout_session', id);

export const listCheckoutSessions = (ctx: ServiceContext, query: ListQuery & { status?: CheckoutSession['status'] | undefined; payment_intent_id?: string | undefined }) =>
  ctx.list<CheckoutSession>('checkout_session', { limit: query.limit, starting_after: query.starting_after, filters: { status: query.status, payment_intent_id: query.payment_intent_id } });

/** Every field of the form to fix at once, where the API's 400 names only the first; a card expired and nothing else is a 402, as at the API. */
export class CheckoutFormInvalid extends ApiError {
  constructor(readonly issues: FormIssue[]) {
    super(issues.every((issue) => issue.code === 'expired_card') ? 402 : 400, issues[0]!.code, `Invalid ${[...new Set(issues.map((i) => i.param))].join(', ')}.`, { param: issues[0]!.param });
  }
}

/** The fields an error of a payment attempt is about: all of an invalid form, else its one param. */
export const issuesOf = (error: ApiError): Array<{ code: string; param?: string | undefined }> =>
  error instanceof CheckoutFormInvalid ? error.issues : [{ code: error.code, param: error.param }];

/** The form as the API's card input; an expiry well formed but past is told as the card's, not as a typing mistake. */
function paymentMethodOf(form: CheckoutForm, today: string): PaymentMethodCreate {
  const { value, exp, issues } = readCheckoutForm(form);
  if (exp && !issues.some((i) => i.param.startsWith('card.exp_')) && expiryPassed(exp.exp_month, exp.exp_year, today)) {
    issues.push({ param: 'card.exp_month', code: 'expired_card', message: 'the card has expired' });
  }
  if (issues.length > 0 || !value) throw new CheckoutFormInvalid(issues);
  return value;
}

/**
 * Pays an open session with the card typed on its hosted page: the same payment-method
 * and confirm services as the API. An invalid form throws CheckoutFormInvalid; a decline
 * throws the 402 (its attempt kept).
 */
export function payCheckoutSession(ctx: ServiceContext, id: string, form: CheckoutForm): CheckoutSession {
  const session = getCheckoutSession(ctx, id);
  if (session.status !== 'open') throw new ApiError(409, 'invalid_state', `This checkout session is ${session.status}: it can no longer be paid.`);
  const pm = createPaymentMethod(ctx, paymentMethodOf(form, ctx.today));
  const intent = confirmPaymentIntent(ctx, session.payment_intent_id, { payment_method_id: pm.id }, 'checkout_session');
  if (intent.status !== 'succeeded') throw new ApiError(409, 'invalid_state', `Payment intent ${intent.id} is ${intent.status}.`);
  const complete = ctx.update<CheckoutSession>({ ...session, status: 'complete', payment_status: 'paid' });
  ctx.emit('checkout_session.completed', complete, { payment_intent_id: intent.id });
  return complete;
}

/** Open sessions expire with the test clock; their unpaid intents are canceled. */
export const checkoutExpiry: DueWork = {
  nextDue(ctx) {
    return earliest(openSessions(ctx).map((s) => s.expires_at).filter((at) => compareInstants(at, ctx.now) > 0));
  },
  run(ctx) {
    for (const session of openSessions(ctx)) {
      if (compareInstants(session.expires_at, ctx.now) > 0) continue;
      const intent = getPaymentIntent(ctx, session.payment_intent_id);
      if (intent.status === 'requires_payment_method' || intent.status === 'requires_confirmation') {
        cancelPaymentIntent(ctx, intent.id, { cancellation_reason: 'abandoned' }, 'checkout_session');
      }
      const expired = ctx.update<CheckoutSession>({ ...session, status: 'expired' });
      ctx.emit('checkout_session.expired', expired, { payment_intent_id: intent.id });
    }
  },
};

const openSessions = (ctx: ServiceContext) => ctx.list<CheckoutSession>('checkout_session', { limit: 100_000, filters: { status: 'open' } }).data;

export function createPaymentLink(ctx: ServiceContext, body: PaymentLinkCreate, origin: string): PaymentLink {
  const link = ctx.create<PaymentLink>('payment_link', {
    url: '',
    active: true,
    amount: body.amount,
    currency: body.currency,
    success_url: body.success_url ?? null,
    cancel_url: body.cancel_url ?? null,
    metadata: body.metadata ?? {},
    description: body.description ?? null,
    merchant_name: body.merchant_name ?? null,
  });
  return ctx.update<PaymentLink>({ ...link, url: `${origin}/pay/${link.id}` });
}

export const getPaymentLink = (ctx: ServiceContext, id: string) => ctx.get<PaymentLink>('payment_link', id);

export const listPaymentLinks = (ctx: ServiceContext, query: ListQuery) =>
  ctx.list<PaymentLink>('payment_link', { limit: query.limit, starting_after: query.starting_after });

/** A visit to a payment link: a new session of its own. */
export function openLinkSession(ctx: ServiceContext, linkId: string, origin: string): CheckoutSession {
  const link = getPaymentLink(ctx, linkId);
  if (!link.active) throw new ApiError(409, 'invalid_state', 'This payment link is no longer active.');
  return createCheckoutSession(ctx, {
    amount: link.amount,
    currency: link.currency,
    success_url: link.success_url,
    cancel_url: link.cancel_url,
    metadata: link.metadata,
    description: link.description ?? undefined,
    merchant_name: link.merchant_name ?? undefined,
    payment_link_id: link.id,
  }, origin);
}
