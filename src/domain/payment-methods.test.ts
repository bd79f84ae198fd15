import { describe, expect, it } from 'vitest';
import { parseExpiry, PaymentMethodCreate } from './payment-methods.js';

describe('parseExpiry', () => {
  it('reads MMYY, MM/YY, MM / YY, MM-YY and MM/YYYY as people type them', () => {
    const dec2034 = { exp_month: 12, exp_year: 2034 };
    for (const text of ['12/34', '1234', '12 / 34', '12-34', '12 34', '12/2034', '122034', ' 12 - 2034 ']) expect(parseExpiry(text), text).toEqual(dec2034);
    expect(parseExpiry(' 1 / 2031 ')).toEqual({ exp_month: 1, exp_year: 2031 });
    expect(parseExpiry('01/31')).toEqual({ exp_month: 1, exp_year: 2031 });
  });

  it('refuses what is not a month and a year', () => {
    for (const text of ['', '12', '123', '12/3', '12345', '12/345', '1/2/34', 'ab/cd', '12.34', '12//34']) expect(parseExpiry(text), text).toBeUndefined();
  });

  it('leaves ranges to the schema', () => {
    expect(parseExpiry('13/34')).toEqual({ exp_month: 13, exp_year: 2034 });
  });
});

describe('PaymentMethodCreate', () => {
  const card = (number: string, cvc = '123') => ({ type: 'card', card: { number, exp_month: 1, exp_year: 2031, cvc } });

  it('strips spaces and dashes from the number', () => {
    const parsed = PaymentMethodCreate.parse(card('4242 4242-4242 4242'));
    expect(parsed.type === 'card' && parsed.card.number).toBe('4242424242424242');
  });

  it('states the expiry year\'s range, which a four-digit year such as 2100 can break', () => {
    const result = PaymentMethodCreate.safeParse({ type: 'card', card: { number: '4242424242424242', exp_month: 1, exp_year: 2100, cvc: '123' } });
    expect(result.error?.issues[0]).toMatchObject({ path: ['card', 'exp_year'], message: 'must be the four-digit expiry year, from 2000 to 2099, e.g. 2030' });
  });

  it('never repeats the number or cvc in its messages', () => {
    for (const body of [card('4242424242424241'), card('378282246310005', '98'), card('9999999999999995')]) {
      const result = PaymentMethodCreate.safeParse(body);
      expect(result.success).toBe(false);
      const messages = result.error!.issues.map((i) => i.message).join(' ');
      expect(messages).not.toMatch(/4242424242424241|378282246310005|9999999999999995|\b98\b/);
    }
  });
});
