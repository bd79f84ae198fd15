import type { PaymentIntent } from './payment-intents.js';
import type { Refund } from './refunds.js';

/** A card the reader declined, told as a 402 would tell it: its code, what to do, and what it declined. */
export interface ReaderDecline {
  code: string;
  message: string;
  payment_intent_id: string;
  refund_id?: string;
}

/**
 * Whether the answer of the present test helper is a decline: the service answers it
 * with the object the card answered, not a 402. A payment's intent waits for another
 * attempt; a same-day refund failed for good, and another is created. `readers present`
 * and a flow's present step both go by it.
 */
export function readerDecline(result: PaymentIntent | Refund, readerId: string): ReaderDecline | undefined {
  if (result.object === 'refund') {
    if (result.status !== 'failed') return undefined;
    return {
      code: 'card_declined',
      message: `Card declined on ${readerId}: ${result.failure_reason} Refund ${result.id} of payment intent ${result.payment_intent_id} is failed: create the refund again to retry.`,
      payment_intent_id: result.payment_intent_id,
      refund_id: result.id,
    };
  }
  const failure = result.status === 'requires_payment_method' ? result.last_payment_error : null;
  if (!failure) return undefined;
  return {
    code: failure.code,
    message: `Card declined on ${readerId}: ${failure.message} (${failure.code}). Payment intent ${result.id} is ${result.status}: confirm it again to retry.`,
    payment_intent_id: result.id,
  };
}
