import { describe, expect, it } from 'vitest';
import { declineType } from './declines.js';
import { chargeOutcomeByKey, TEST_CARDS } from './test-cards.js';

describe('declineType', () => {
  it('soft for a refusal that may pass later, hard for a card that cannot be charged as it is', () => {
    for (const code of ['insufficient_funds', 'card_declined', 'processing_error', 'try_again_later']) expect(declineType(code), code).toBe('soft');
    for (const code of ['expired_card', 'incorrect_cvc', 'card_not_supported', 'stolen_card', 'incorrect_number']) expect(declineType(code), code).toBe('hard');
  });

  it('an unknown code is hard: a batch never retries it on the same card', () => {
    expect(declineType('something_new')).toBe('hard');
    expect(declineType('constructor')).toBe('hard');
  });

  it('places every decline the sandbox\'s test cards give', () => {
    const codes = new Set(TEST_CARDS.flatMap((card) => {
      const result = chargeOutcomeByKey(card.outcome, { kind: 'online' }, 100);
      return result.ok ? [] : [result.code];
    }));
    expect([...codes].sort()).toEqual(['card_declined', 'card_not_supported', 'expired_card', 'incorrect_cvc', 'insufficient_funds']);
    expect([...codes].map(declineType)).toEqual([...codes].map((c) => (c === 'card_declined' || c === 'insufficient_funds' ? 'soft' : 'hard')));
  });
});
