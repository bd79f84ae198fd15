import type { DeclineCode } from './test-cards.js';

// Which declines are worth another attempt on the same card. A soft decline (the issuer
// said no this time: funds, a generic refusal, a processing hiccup) may pass later; a
// hard one (the card itself is wrong or unusable) fails every time until the card
// changes, and repeating it wastes an attempt that card networks count and may penalise.

export const DECLINE_TYPES = ['soft', 'hard'] as const;
export type DeclineType = (typeof DECLINE_TYPES)[number];

/** Every decline the sandbox gives (typed: a new one must be placed here), and the usual others. */
const DECLINES: Record<DeclineCode, DeclineType> & Record<string, DeclineType> = {
  card_declined: 'soft',
  insufficient_funds: 'soft',
  processing_error: 'soft',
  try_again_later: 'soft',
  issuer_not_available: 'soft',
  do_not_honor: 'soft',
  generic_decline: 'soft',
  card_velocity_exceeded: 'soft',
  withdrawal_count_limit_exceeded: 'soft',
  expired_card: 'hard',
  incorrect_cvc: 'hard',
  card_not_supported: 'hard',
  incorrect_number: 'hard',
  invalid_number: 'hard',
  invalid_expiry_month: 'hard',
  invalid_expiry_year: 'hard',
  lost_card: 'hard',
  stolen_card: 'hard',
  pickup_card: 'hard',
  fraudulent: 'hard',
  restricted_card: 'hard',
  invalid_account: 'hard',
  currency_not_supported: 'hard',
};

/** A decline code's type; one not in the table is hard, so it is never retried on the same card by a batch. */
export function declineType(code: string): DeclineType {
  return Object.hasOwn(DECLINES, code) ? DECLINES[code]! : 'hard';
}
