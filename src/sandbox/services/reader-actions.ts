import { ApiError } from '../../domain/errors.js';
import type { PaymentIntent } from '../../domain/payment-intents.js';
import type { Refund } from '../../domain/refunds.js';
import type { PresentOutcome, ReaderPresent } from '../../domain/terminal-readers.js';
import { chargeOutcomeByKey, type ChargeResult, type OutcomeKey, outcomeKey } from '../../domain/test-cards.js';
import type { ServiceContext } from './context.js';
import { getPaymentIntent, settleOnReader } from './payment-intents.js';
import { settleRefundOnReader } from './refunds.js';
import { getReader } from './terminal-readers.js';

const OUTCOME_KEYS: Record<PresentOutcome, OutcomeKey> = {
  approved: 'success',
  declined: 'card_declined',
  insufficient_funds: 'insufficient_funds',
  expired_card: 'expired_card',
  incorrect_cvc: 'incorrect_cvc',
  hsa_fsa: 'hsa_fsa',
};

/**
 * A card presented on a reader (the sandbox's stand-in for a customer at a terminal)
 * answers the reader's current action. For a payment, the reader's processor decides
 * which brands it takes, a tip adds to the amount, and an available amount below the
 * total is a partial authorization.
 */
export function presentOnReader(ctx: ServiceContext, readerId: string, body: ReaderPresent): PaymentIntent | Refund {
  const reader = getReader(ctx, readerId);
  const action = reader.action;
  if (action === null) {
    throw new ApiError(409, 'invalid_state', `Terminal reader ${reader.id} is not waiting for a card: confirm a card_present payment intent on it first.`);
  }
  const key = body.card_number === undefined ? OUTCOME_KEYS[body.outcome ?? 'approved'] : outcomeKey(body.card_number);
  // A same-day processor B refund: the customer's card on the reader confirms it.
  if (action.type === 'refund_payment') return settleRefundOnReader(ctx, reader, action.refund_id, key === 'success');
  const intent = getPaymentIntent(ctx, action.payment_intent_id);
  const tip = body.tip_amount ?? 0;
  const result = limitToAvailable(chargeOutcomeByKey(key, { kind: 'in_person', processor: reader.processor }, intent.amount + tip), body.available_amount);
  return settleOnReader(ctx, reader, intent.id, result, tip);
}

/** Partial authorization: only what the card has is captured; nothing available is a decline. */
function limitToAvailable(result: ChargeResult, available: number | undefined): ChargeResult {
  if (!result.ok || available === undefined || available >= result.captured) return result;
  if (available === 0) return chargeOutcomeByKey('insufficient_funds', { kind: 'online' }, 0);
  return { ok: true, captured: available };
}
