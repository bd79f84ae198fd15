import { describe, expect, it } from 'vitest';
import { redactCardData } from './mask.js';

describe('redactCardData', () => {
  it('keeps the last 4 digits of card numbers and nothing of a cvc', () => {
    const body = JSON.stringify({ type: 'card', card: { number: '4242 4242 4242 4242', exp_month: 12, cvc: '123' }, card_number: '3566002020360505' });
    const redacted = redactCardData(body);
    expect(redacted).toBe('{"type":"card","card":{"number":"…4242","exp_month":12,"cvc":"…"},"card_number":"…0505"}');
  });

  it('leaves other JSON alone', () => {
    const body = '{"amount":1099,"currency":"usd"}';
    expect(redactCardData(body)).toBe(body);
  });
});
