import { describe, expect, it } from 'vitest';
import { Currency } from './common.js';
import { parseOrThrow } from './errors.js';
import { formatAmount, isCurrency, minorUnitDigits } from './money.js';
import { PaymentIntentCreate } from './payment-intents.js';

describe('currencies (ISO 4217, lowercase)', () => {
  it('accepts codes in circulation and nothing else', () => {
    for (const code of ['usd', 'eur', 'jpy', 'bhd', 'gbp']) expect(isCurrency(code)).toBe(true);
    for (const code of ['xyz', 'qqq', 'abc', 'USD', 'Usd', 'us', 'usdd', '']) expect(isCurrency(code)).toBe(false);
  });

  // Intl's list has more than money one can charge in: ISO 4217's X codes that are no currency (drawing rights, metals, testing) and withdrawn currencies.
  it('refuses codes that are no currency to charge in: special drawing rights, metals, funds, testing, withdrawn', () => {
    for (const code of ['xaf', 'xof', 'xpf', 'xcd', 'xcg', 'sle', 'zwg', 'ves']) expect(isCurrency(code), code).toBe(true);
    for (const code of ['xau', 'xag', 'xdr', 'xsu', 'xts', 'xxx', 'xua', 'usn', 'clf', 'hrk', 'cuc', 'sll', 'zwl', 'ang']) expect(isCurrency(code), code).toBe(false);
    expect(() => parseOrThrow(PaymentIntentCreate, { amount: 100, currency: 'xdr', payment_method_types: ['card'] })).toThrow(
      expect.objectContaining({ status: 400, param: 'currency', message: 'Invalid currency: must be a lowercase ISO 4217 currency code, e.g. usd, eur or jpy' }),
    );
  });

  it('one schema: an unknown or uppercase code is a 400 naming currency', () => {
    for (const currency of ['qqq', 'abc', 'USD']) {
      expect(Currency.safeParse(currency).success).toBe(false);
      expect(() => parseOrThrow(PaymentIntentCreate, { amount: 100, currency, payment_method_types: ['card'] })).toThrow(
        expect.objectContaining({ status: 400, param: 'currency', message: expect.stringMatching(/ISO 4217/) }),
      );
    }
    expect(parseOrThrow(PaymentIntentCreate, { amount: 1000, currency: 'jpy', payment_method_types: ['card'] }).currency).toBe('jpy');
  });

  it('minor units follow the currency', () => {
    expect(minorUnitDigits('usd')).toBe(2);
    expect(minorUnitDigits('jpy')).toBe(0);
    expect(minorUnitDigits('bhd')).toBe(3);
    expect(formatAmount(1099, 'usd')).toBe('$10.99');
    expect(formatAmount(1000, 'jpy')).toBe('¥1,000');
    expect(formatAmount(500, 'jpy')).toBe('¥500');
    expect(formatAmount(2500, 'eur')).toBe('€25.00');
    expect(formatAmount(1234, 'bhd')).toMatch(/^BHD\s1\.234$/);
  });
});
