import type { CardBrand } from './cards.js';
import { detectBrand, PROCESSOR_B_EXTRA_BRANDS } from './cards.js';

// The sandbox's test cards (DESIGN section 4). The sandbox never stores card numbers, so
// a payment method keeps its OutcomeKey and every charge is decided from that key.

export type OutcomeKey =
  | 'success'
  | 'card_declined'
  | 'insufficient_funds'
  | 'expired_card'
  | 'incorrect_cvc'
  | 'hsa_fsa'
  | 'partial'
  | 'processor_b_only';

export type DeclineCode = 'card_declined' | 'insufficient_funds' | 'expired_card' | 'incorrect_cvc' | 'card_not_supported';
export type Decline = { ok: false; code: DeclineCode; message: string };
export type ChargeResult = { ok: true; captured: number } | Decline;
export type Channel = { kind: 'online' } | { kind: 'in_person'; processor: 'A' | 'B' };

export interface TestCard {
  readonly number: string;
  readonly brand: CardBrand;
  readonly outcome: OutcomeKey;
  readonly description: string;
}

const DESCRIPTIONS: Record<OutcomeKey, string> = {
  success: 'Succeeds',
  processor_b_only: 'Succeeds in person on processor B; card_not_supported elsewhere',
  card_declined: 'Declined: card_declined',
  insufficient_funds: 'Declined: insufficient_funds',
  partial: 'Partial authorization: half the amount (rounded down) is captured; an amount of 1 is declined, insufficient_funds',
  hsa_fsa: 'HSA/FSA card: always card_not_supported',
  expired_card: 'Declined: expired_card',
  incorrect_cvc: 'Declined: incorrect_cvc',
};

const card = (number: string, brand: CardBrand, outcome: OutcomeKey): TestCard => ({
  number,
  brand,
  outcome,
  description: DESCRIPTIONS[outcome],
});

export const TEST_CARDS: readonly TestCard[] = [
  card('4242424242424242', 'visa', 'success'),
  card('5555555555554444', 'mastercard', 'success'),
  card('378282246310005', 'amex', 'success'),
  card('6011111111111117', 'discover', 'success'),
  card('3566002020360505', 'jcb', 'processor_b_only'),
  card('36227206271667', 'diners', 'processor_b_only'),
  card('6200000000000005', 'unionpay', 'processor_b_only'),
  card('4000000000000002', 'visa', 'card_declined'),
  card('4000000000009995', 'visa', 'insufficient_funds'),
  card('4000000000005555', 'visa', 'partial'),
  card('4000000000001117', 'visa', 'hsa_fsa'),
  card('4000000000000069', 'visa', 'expired_card'),
  card('4000000000000127', 'visa', 'incorrect_cvc'),
];

const OUTCOME_BY_NUMBER = new Map(TEST_CARDS.map((c) => [c.number, c.outcome]));

/** The outcome a card number gets: its test card's, else what its brand allows. */
export function outcomeKey(number: string): OutcomeKey {
  const listed = OUTCOME_BY_NUMBER.get(number);
  if (listed !== undefined) return listed;
  const brand = detectBrand(number);
  return brand !== undefined && (PROCESSOR_B_EXTRA_BRANDS as readonly CardBrand[]).includes(brand)
    ? 'processor_b_only'
    : 'success';
}

const DECLINE_MESSAGES = {
  card_declined: 'Your card was declined. Use a different card, or ask your card issuer why.',
  insufficient_funds: 'Your card has insufficient funds. Use a different card.',
  expired_card: 'Your card has expired. Check the expiry date or use a different card.',
  incorrect_cvc: "Your card's security code (CVC) is incorrect. Check it and try again.",
} as const;

/** Result of charging amount to a card with this outcome through channel. */
export function chargeOutcomeByKey(key: OutcomeKey, channel: Channel, amount: number): ChargeResult {
  switch (key) {
    case 'success':
      return { ok: true, captured: amount };
    case 'partial': {
      // Half of 1 is nothing: no funds to authorize, as a reader's available_amount of 0.
      const half = Math.floor(amount / 2);
      return half > 0 ? { ok: true, captured: half } : chargeOutcomeByKey('insufficient_funds', channel, amount);
    }
    case 'processor_b_only':
      return channel.kind === 'in_person' && channel.processor === 'B'
        ? { ok: true, captured: amount }
        : {
            ok: false,
            code: 'card_not_supported',
            message: 'JCB, Diners Club and UnionPay cards are accepted only in person on processor B readers. Use a different card.',
          };
    case 'hsa_fsa':
      return { ok: false, code: 'card_not_supported', message: 'HSA/FSA cards are not accepted. Use a different card.' };
    default:
      return { ok: false, code: key, message: DECLINE_MESSAGES[key] };
  }
}

/**
 * Whether a card presented for a refund (a same-day processor B refund) takes it: a refund
 * adds funds, so a card short of them, or that a payment would only partly authorize,
 * takes it; a card the processor never accepts, or one declined outright, does not.
 */
export function refundAcceptedByKey(key: OutcomeKey, channel: Channel): boolean {
  return key === 'partial' || key === 'insufficient_funds' || chargeOutcomeByKey(key, channel, 1).ok;
}

/**
 * The decline that refuses an online card when its payment method is created, if any.
 * card_not_supported online means no attempt could ever succeed; other declines belong
 * to the payment attempt.
 */
export function onlineRefusal(key: OutcomeKey): Decline | undefined {
  const result = chargeOutcomeByKey(key, { kind: 'online' }, 0);
  return !result.ok && result.code === 'card_not_supported' ? result : undefined;
}
