import { describe, expect, it } from 'vitest';
import { parseExpiry, PaymentMethodCreate } from './payment-methods.js';

describe('parseExpiry', () => {
  it('reads MM/YY and MM/YYYY as people type them', () => {
    expect(parseExpiry('12/34')).toEqual({ exp_month: 12, exp_year: 2034 });
    expect(parseExpiry(' 1 / 2031 ')).toEqual({ exp_month: 1, exp_year: 2031 });
    for (const text of ['', '12', '12/3', '12-34', '1234', 'ab/cd', '12/345']) expect(parseExpiry(text), text).toBeUndefined();
  });
});

describe('PaymentMethodCreate', () => {
  const card = (number: string, cvc = '123') => ({ type: 'card', card: { number, exp_month: 1, exp_year: 2031, cvc } });

  it('strips spaces and dashes from the number', () => {
    const parsed = PaymentMethodCreate.parse(card('4242 4242-4242 4242'));
    expect(parsed.type === 'card' && parsed.card.number).toBe('4242424242424242');
  });

  it('never repeats the number or cvc in its messages', () => {
    for (const body of [card('4242424242424241'), card('378282246310005', '987'), card('9999999999999995')]) {
      const result = PaymentMethodCreate.safeParse(body);
      expect(result.success).toBe(false);
      const messages = result.error!.issues.map((i) => i.message).join(' ');
      expect(messages).not.toMatch(/4242424242424241|378282246310005|9999999999999995|987/);
    }
  });
});
