import { expiryPassed, fingerprint, last4, detectBrand } from '../../domain/cards.js';
import type { ListQuery } from '../../domain/common.js';
import type { Customer } from '../../domain/customers.js';
import { ApiError, invalid } from '../../domain/errors.js';
import type { PaymentMethod, PaymentMethodCreate, PaymentMethodType } from '../../domain/payment-methods.js';
import { onlineRefusal, outcomeKey, type OutcomeKey } from '../../domain/test-cards.js';
import type { ServiceContext } from './context.js';
import { getReader } from './terminal-readers.js';

/**
 * The stored document adds the card's outcome key: charges are decided from it because
 * the number itself is never kept. It never leaves the sandbox (see publicView).
 */
export type StoredPaymentMethod = PaymentMethod & { outcome: OutcomeKey | null };

export function publicView({ outcome: _outcome, ...pm }: StoredPaymentMethod): PaymentMethod {
  return pm;
}

export function createPaymentMethod(ctx: ServiceContext, input: PaymentMethodCreate): PaymentMethod {
  const zip = input.billing_details?.address?.zip ?? null;
  if (input.type === 'card_present') {
    getReader(ctx, input.terminal_reader_id, 'terminal_reader_id');
    return publicView(ctx.create<StoredPaymentMethod>('payment_method', {
      type: 'card_present',
      card: null,
      billing_details: { address: { zip } },
      terminal_reader_id: input.terminal_reader_id,
      customer_id: null,
      metadata: input.metadata ?? {},
      outcome: null,
    }));
  }
  const { number, exp_month, exp_year } = input.card;
  if (expiryPassed(exp_month, exp_year, ctx.today)) {
    const param = exp_year < Number(ctx.today.slice(0, 4)) ? 'card.exp_year' : 'card.exp_month';
    // A card that can never be charged is refused as a card, like one of a brand not taken online (DESIGN section 4).
    throw new ApiError(402, 'expired_card', `Your card has expired: ${param} says it expired at the end of ${String(exp_month).padStart(2, '0')}/${exp_year} (today is ${ctx.today}).`, { param });
  }
  const outcome = outcomeKey(number);
  const refusal = onlineRefusal(outcome);
  if (refusal) throw new ApiError(402, refusal.code, refusal.message, { param: 'card.number' });
  return publicView(ctx.create<StoredPaymentMethod>('payment_method', {
    type: 'card',
    card: { brand: detectBrand(number)!, last4: last4(number), exp_month, exp_year, fingerprint: fingerprint(number, ctx.store.keys.fingerprintKey(ctx.account.id)) },
    billing_details: { address: { zip } },
    terminal_reader_id: null,
    customer_id: null,
    metadata: input.metadata ?? {},
    outcome,
  }));
}

/** The stored method with its outcome key, for the services that charge it. */
export const storedPaymentMethod = (ctx: ServiceContext, id: string, param = 'id') =>
  ctx.get<StoredPaymentMethod>('payment_method', id, param);

export const getPaymentMethod = (ctx: ServiceContext, id: string) => publicView(storedPaymentMethod(ctx, id));

export function listPaymentMethods(ctx: ServiceContext, query: ListQuery & { customer_id?: string | undefined; type?: PaymentMethodType | undefined }) {
  const page = ctx.list<StoredPaymentMethod>('payment_method', {
    limit: query.limit,
    starting_after: query.starting_after,
    filters: { customer_id: query.customer_id, type: query.type },
  });
  return { ...page, data: page.data.map(publicView) };
}

/** Spec section 4: attach sets customer_id and emits payment_method.attached. */
export function attachPaymentMethod(ctx: ServiceContext, id: string, customerId: string): PaymentMethod {
  const pm = storedPaymentMethod(ctx, id);
  ctx.get<Customer>('customer', customerId, 'customer_id');
  if (pm.type === 'card_present') {
    throw invalid('id', `Payment method ${pm.id} is card_present: it is used once on its reader and cannot be attached to a customer. Attach a card payment method.`);
  }
  if (pm.customer_id === customerId) return publicView(pm);
  if (pm.customer_id !== null) {
    throw new ApiError(409, 'invalid_state', `Payment method ${pm.id} is already attached to customer ${pm.customer_id}; create a new payment method for ${customerId}.`);
  }
  const attached = publicView(ctx.update<StoredPaymentMethod>({ ...pm, customer_id: customerId }));
  ctx.emit('payment_method.attached', attached, { customer_id: customerId });
  return attached;
}
