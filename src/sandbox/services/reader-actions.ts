import { detectBrand, last4 } from '../../domain/cards.js';
import { ApiError, invalid } from '../../domain/errors.js';
import type { CardPresentDetails, PaymentIntent } from '../../domain/payment-intents.js';
import type { ReaderAction, ReaderResult } from '../../domain/reader-protocol.js';
import type { Refund } from '../../domain/refunds.js';
import { PAYMENT_ONLY_FIELDS, type PendingReaderAction, type PresentOutcome, type ReaderPresent, type TerminalReader, tipOn } from '../../domain/terminal-readers.js';
import { chargeOutcomeByKey, type ChargeResult, type OutcomeKey, outcomeKey, refundAcceptedByKey, TEST_CARDS } from '../../domain/test-cards.js';
import type { ServiceContext } from './context.js';
import { getPaymentIntent, settleOnReader } from './payment-intents.js';
import { getRefund, settleRefundOnReader } from './refunds.js';
import { getReader, pushToReader } from './terminal-readers.js';

const OUTCOME_KEYS: Record<PresentOutcome, OutcomeKey> = {
  approved: 'success',
  declined: 'card_declined',
  insufficient_funds: 'insufficient_funds',
  expired_card: 'expired_card',
  incorrect_cvc: 'incorrect_cvc',
  hsa_fsa: 'hsa_fsa',
  partial: 'partial',
};

/**
 * The present test helper: a card presented on the reader without the reader. A reader
 * connected meanwhile is asking its customer the same question: it is told to stop.
 */
export function presentOnReader(ctx: ServiceContext, readerId: string, body: ReaderPresent): PaymentIntent | Refund {
  const reader = getReader(ctx, readerId);
  const action = reader.action;
  if (action === null) {
    throw new ApiError(409, 'invalid_state', `Terminal reader ${reader.id} is not waiting for a card: confirm a card_present payment intent on it first.`);
  }
  const answered = present(ctx, reader, action, body);
  const refund = action.type === 'refund_payment' ? { refund_id: action.refund_id } : {};
  pushToReader(ctx, reader.id, { type: 'cancel_action', payment_intent_id: action.payment_intent_id, ...refund, reason: 'a card was presented through the present test helper instead' });
  return answered;
}

/**
 * A card presented on a reader (the sandbox's stand-in for a customer at a terminal)
 * answers the reader's current action. For a payment, the reader's processor decides
 * which brands it takes, a tip adds to the amount, and an available amount below the
 * total is a partial authorization. The present test helper and a connected reader's
 * result (the reader hub) both come here.
 */
function present(ctx: ServiceContext, reader: TerminalReader, action: PendingReaderAction, body: ReaderPresent): PaymentIntent | Refund {
  const key = body.card_number === undefined ? OUTCOME_KEYS[body.outcome ?? 'approved'] : outcomeKey(body.card_number);
  const channel = { kind: 'in_person', processor: reader.processor } as const;
  // A same-day processor B refund: the customer's card on the reader confirms it.
  if (action.type === 'refund_payment') {
    for (const field of PAYMENT_ONLY_FIELDS) {
      if (body[field] !== undefined) throw invalid(field, `Invalid ${field}: reader ${reader.id} is confirming refund ${action.refund_id}, which the customer's card confirms: ${field} goes with a payment.`);
    }
    return settleRefundOnReader(ctx, reader, action.refund_id, refundAcceptedByKey(key, channel));
  }
  const intent = getPaymentIntent(ctx, action.payment_intent_id);
  const tip = tipOn(intent.amount, body.tip_amount);
  // A named available amount is what the card covers: it, not the partial card's half, is captured.
  const paying = key === 'partial' && body.available_amount !== undefined ? 'success' : key;
  const result = limitToAvailable(chargeOutcomeByKey(paying, channel, intent.amount + tip), body.available_amount);
  return settleOnReader(ctx, reader, intent.id, result, { tip, card_present: presentedCard(body, key) });
}

/**
 * A connected reader's result: it must answer the action the reader holds now (an
 * action canceled or replaced meanwhile is refused), then it is a card presented.
 */
export function answerOnReader(ctx: ServiceContext, readerId: string, result: ReaderResult): PaymentIntent | Refund {
  const { type: _type, payment_intent_id, refund_id, ...presented } = result;
  const reader = getReader(ctx, readerId);
  const action = reader.action;
  const waiting = action === null ? undefined : action.type === 'refund_payment' ? `refund ${action.refund_id}` : `payment intent ${action.payment_intent_id}`;
  const answered = refund_id === undefined ? `payment intent ${payment_intent_id}` : `refund ${refund_id}`;
  if (action === null || waiting !== answered) {
    throw new ApiError(409, 'reader_action_stale', `Terminal reader ${readerId} is not processing ${answered} (it was canceled or completed)${waiting ? `; it is waiting for ${waiting}` : ''}.`);
  }
  return present(ctx, reader, action, presented);
}

/** The message that sends a reader its pending action again (a reader that reconnects). */
export function pendingAction(ctx: ServiceContext, reader: TerminalReader): ReaderAction | undefined {
  const action = reader.action;
  if (action === null) return undefined;
  if (action.type === 'refund_payment') {
    const refund = getRefund(ctx, action.refund_id);
    return { ...action, amount: refund.amount, currency: refund.currency };
  }
  const intent = getPaymentIntent(ctx, action.payment_intent_id);
  return { ...action, amount: intent.amount, currency: intent.currency };
}

/** The card on the charge: the one presented, or the test card of the outcome asked for. */
function presentedCard(body: ReaderPresent, key: OutcomeKey): CardPresentDetails {
  const number = body.card_number ?? TEST_CARDS.find((c) => c.outcome === key)!.number;
  return { brand: detectBrand(number)!, last4: last4(number), read_method: body.method ?? 'tap' };
}

/** Partial authorization: only what the card has is captured; nothing available is a decline. */
function limitToAvailable(result: ChargeResult, available: number | undefined): ChargeResult {
  if (!result.ok || available === undefined || available >= result.captured) return result;
  if (available === 0) return chargeOutcomeByKey('insufficient_funds', { kind: 'online' }, 0);
  return { ok: true, captured: available };
}
