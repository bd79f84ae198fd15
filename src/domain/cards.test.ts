import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cvcLengths, detectBrand, expiryPassed, fingerprint, last4, luhnValid, maskCardNumbers } from './cards.js';

describe('luhnValid', () => {
  it('accepts numbers with a correct check digit', () => {
    for (const n of ['4242424242424242', '378282246310005', '36227206271667', '6200000000000005', '4000000000000002'])
      expect(luhnValid(n), n).toBe(true);
  });

  it('rejects a wrong check digit, non-digits and impossible lengths', () => {
    for (const n of ['4242424242424241', '4242 4242 4242 4242', '4242-4242-4242-4242', '', '42424242424', '00000000000000000000'])
      expect(luhnValid(n), n).toBe(false);
  });
});

describe('detectBrand', () => {
  it('recognises the test cards', () => {
    expect(detectBrand('4242424242424242')).toBe('visa');
    expect(detectBrand('5555555555554444')).toBe('mastercard');
    expect(detectBrand('2223003122003222')).toBe('mastercard');
    expect(detectBrand('378282246310005')).toBe('amex');
    expect(detectBrand('6011111111111117')).toBe('discover');
    expect(detectBrand('3566002020360505')).toBe('jcb');
    expect(detectBrand('36227206271667')).toBe('diners');
    expect(detectBrand('6200000000000005')).toBe('unionpay');
  });

  it('follows the edges of each range', () => {
    const cases: Array<[string, string | undefined]> = [
      ['2220999999999999', undefined],
      ['2221000000000000', 'mastercard'],
      ['2720999999999999', 'mastercard'],
      ['2721000000000000', undefined],
      ['5099999999999999', undefined],
      ['5100000000000000', 'mastercard'],
      ['5599999999999999', 'mastercard'],
      ['5600000000000000', undefined],
      ['340000000000000', 'amex'],
      ['350000000000000', undefined],
      ['6011000000000000', 'discover'],
      ['6012000000000000', undefined],
      ['6439999999999999', undefined],
      ['6440000000000000', 'discover'],
      ['6499999999999999', 'discover'],
      ['6500000000000000', 'discover'],
      ['6220000000000000', 'unionpay'],
      ['3527999999999999', undefined],
      ['3528000000000000', 'jcb'],
      ['3589999999999999', 'jcb'],
      ['3590000000000000', undefined],
      ['30000000000000', 'diners'],
      ['30599999999999', 'diners'],
      ['30600000000000', undefined],
      ['38000000000000', 'diners'],
      ['39000000000000', 'diners'],
      ['1234567812345670', undefined],
    ];
    for (const [n, brand] of cases) expect(detectBrand(n), n).toBe(brand);
  });

  it('knows no brand for empty or non-digit input', () => {
    expect(detectBrand('')).toBeUndefined();
    expect(detectBrand('4242 4242 4242 4242')).toBeUndefined();
    expect(detectBrand('6')).toBeUndefined();
  });
});

describe('card details', () => {
  it('amex has a 4-digit CVC, others 3', () => {
    expect(cvcLengths('amex')).toEqual([3, 4]);
    expect(cvcLengths('visa')).toEqual([3]);
    expect(cvcLengths('unionpay')).toEqual([3]);
  });

  it('a card is valid through the end of its expiry month', () => {
    expect(expiryPassed(2, 2027, '2027-02-28')).toBe(false);
    expect(expiryPassed(2, 2027, '2027-03-01')).toBe(true);
    expect(expiryPassed(2, 2027, '2026-12-31')).toBe(false);
    expect(expiryPassed(12, 2026, '2026-12-31')).toBe(false);
    expect(expiryPassed(12, 2026, '2027-01-01')).toBe(true);
  });

  it('fingerprint is a per-account HMAC-SHA256 prefix of the number', () => {
    const fp = fingerprint('4242424242424242', 'secret-a');
    expect(fp).toMatch(/^[0-9a-f]{16}$/);
    expect(fp).toBe(createHmac('sha256', 'secret-a').update('4242424242424242').digest('hex').slice(0, 16));
    expect(fingerprint('4242424242424242', 'secret-a')).toBe(fp);
    expect(fingerprint('4242424242424242', 'secret-b')).not.toBe(fp);
    expect(fingerprint('5555555555554444', 'secret-a')).not.toBe(fp);
  });

  it('last4', () => {
    expect(last4('378282246310005')).toBe('0005');
  });
});

describe('maskCardNumbers', () => {
  it('shows a card number anywhere in a text as its last 4 digits, whole or grouped', () => {
    expect(maskCardNumbers('Received unknown parameter: 4242424242424242.')).toBe('Received unknown parameter: …4242.');
    expect(maskCardNumbers('{"pan":"378282246310005","4000000000000002":"x"}')).toBe('{"pan":"…0005","…0002":"x"}');
    expect(maskCardNumbers('/v1/payment-methods/5555-5555-5555-4444')).toBe('/v1/payment-methods/…4444');
    // Grouped, then an expiry: the card is found among the groups.
    expect(maskCardNumbers('card 4242 4242 4242 4242 12 34')).toBe('card …4242 12 34');
  });

  it('leaves digits that are no card number as they are', () => {
    for (const text of ['4242424242424241', '12345678901234', '2030-01-15T00:00:00Z', '"amount":1099', 'pm_AAAAAFvgcjggxLBNerLyEjGj', '4242', '424242424242424242424242'])
      expect(maskCardNumbers(text), text).toBe(text);
  });
});
