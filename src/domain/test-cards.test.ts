import { describe, expect, it } from 'vitest';
import { detectBrand, luhnValid } from './cards.js';
import type { Channel, OutcomeKey } from './test-cards.js';
import { chargeOutcomeByKey, onlineRefusal, outcomeKey, TEST_CARDS } from './test-cards.js';

const ONLINE: Channel = { kind: 'online' };
const PROCESSOR_A: Channel = { kind: 'in_person', processor: 'A' };
const PROCESSOR_B: Channel = { kind: 'in_person', processor: 'B' };
const CHANNELS = [ONLINE, PROCESSOR_A, PROCESSOR_B];

describe('TEST_CARDS', () => {
  it('holds valid, distinct numbers of the stated brands', () => {
    expect(new Set(TEST_CARDS.map((c) => c.number)).size).toBe(TEST_CARDS.length);
    for (const c of TEST_CARDS) {
      expect(luhnValid(c.number), c.number).toBe(true);
      expect(detectBrand(c.number), c.number).toBe(c.brand);
      expect(c.description).not.toBe('');
    }
  });

  it('matches the table in DESIGN section 4', () => {
    expect(Object.fromEntries(TEST_CARDS.map((c) => [c.number, c.outcome]))).toEqual({
      '4242424242424242': 'success',
      '5555555555554444': 'success',
      '378282246310005': 'success',
      '6011111111111117': 'success',
      '3566002020360505': 'processor_b_only',
      '36227206271667': 'processor_b_only',
      '6200000000000005': 'processor_b_only',
      '4000000000000002': 'card_declined',
      '4000000000009995': 'insufficient_funds',
      '4000000000005555': 'partial',
      '4000000000001117': 'hsa_fsa',
      '4000000000000069': 'expired_card',
      '4000000000000127': 'incorrect_cvc',
    });
  });
});

describe('outcomeKey', () => {
  it('gives a test card its own outcome', () => {
    for (const c of TEST_CARDS) expect(outcomeKey(c.number)).toBe(c.outcome);
  });

  it('lets any other card of an online brand succeed', () => {
    expect(outcomeKey('4111111111111111')).toBe('success');
    expect(outcomeKey('5105105105105100')).toBe('success');
  });

  it('keeps any other jcb, diners or unionpay card to processor B', () => {
    expect(outcomeKey('3530111333300000')).toBe('processor_b_only');
    expect(outcomeKey('30569309025904')).toBe('processor_b_only');
    expect(outcomeKey('6205500000000000004')).toBe('processor_b_only');
  });
});

describe('chargeOutcomeByKey', () => {
  it('success captures the whole amount on every channel', () => {
    for (const ch of CHANNELS) expect(chargeOutcomeByKey('success', ch, 1234)).toEqual({ ok: true, captured: 1234 });
  });

  it('partial captures half the amount, rounded down', () => {
    for (const ch of CHANNELS) {
      expect(chargeOutcomeByKey('partial', ch, 1000)).toEqual({ ok: true, captured: 500 });
      expect(chargeOutcomeByKey('partial', ch, 1001)).toEqual({ ok: true, captured: 500 });
      // Half of 1 rounds down to nothing: a decline, never a success that collected 0.
      expect(chargeOutcomeByKey('partial', ch, 1)).toMatchObject({ ok: false, code: 'insufficient_funds' });
    }
  });

  it('processor_b_only succeeds only in person on processor B', () => {
    expect(chargeOutcomeByKey('processor_b_only', PROCESSOR_B, 700)).toEqual({ ok: true, captured: 700 });
    for (const ch of [ONLINE, PROCESSOR_A])
      expect(chargeOutcomeByKey('processor_b_only', ch, 700)).toMatchObject({ ok: false, code: 'card_not_supported' });
  });

  it('hsa_fsa is never supported', () => {
    for (const ch of CHANNELS)
      expect(chargeOutcomeByKey('hsa_fsa', ch, 700)).toMatchObject({ ok: false, code: 'card_not_supported', message: expect.stringContaining('HSA/FSA') });
  });

  it('declines carry their code and a message a person can act on', () => {
    const declines: OutcomeKey[] = ['card_declined', 'insufficient_funds', 'expired_card', 'incorrect_cvc'];
    for (const key of declines)
      for (const ch of CHANNELS) {
        const result = chargeOutcomeByKey(key, ch, 700);
        expect(result).toMatchObject({ ok: false, code: key });
        expect(!result.ok && result.message).toMatch(/^Your card.*\.$/);
      }
    expect(chargeOutcomeByKey('insufficient_funds', ONLINE, 700)).toMatchObject({
      message: expect.stringContaining('Your card has insufficient funds.'),
    });
  });
});

describe('onlineRefusal', () => {
  it('refuses online cards that can never be charged', () => {
    expect(onlineRefusal('hsa_fsa')).toMatchObject({ ok: false, code: 'card_not_supported' });
    expect(onlineRefusal('processor_b_only')).toMatchObject({ ok: false, code: 'card_not_supported' });
    expect(onlineRefusal(outcomeKey('3530111333300000'))).toMatchObject({ code: 'card_not_supported' });
  });

  it('accepts cards whose declines belong to a payment attempt', () => {
    for (const key of ['success', 'partial', 'card_declined', 'insufficient_funds', 'expired_card', 'incorrect_cvc'] as const)
      expect(onlineRefusal(key), key).toBeUndefined();
  });
});
