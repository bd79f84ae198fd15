import { createHmac } from 'node:crypto';

// Card rules shared by the client's input checks and the sandbox. Card numbers here are
// strings of digits; callers strip spaces before.

export const ONLINE_BRANDS = ['visa', 'mastercard', 'amex', 'discover'] as const;
/** Brands accepted only in person, on processor B readers. */
export const PROCESSOR_B_EXTRA_BRANDS = ['jcb', 'diners', 'unionpay'] as const;
export type CardBrand = (typeof ONLINE_BRANDS)[number] | (typeof PROCESSOR_B_EXTRA_BRANDS)[number];

/** 12–19 digits (the ISO/IEC 7812 lengths) ending in a correct Luhn check digit. */
export function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

// [brand, first prefix, last prefix]; a range's prefixes all have the same length, so
// comparing strings compares numbers. First match wins: Discover's 6011 and 65 come
// before UnionPay's 62.
const IIN_RANGES: ReadonlyArray<readonly [CardBrand, string, string]> = [
  ['visa', '4', '4'],
  ['mastercard', '51', '55'],
  ['mastercard', '2221', '2720'],
  ['amex', '34', '34'],
  ['amex', '37', '37'],
  ['discover', '6011', '6011'],
  ['discover', '644', '649'],
  ['discover', '65', '65'],
  ['jcb', '3528', '3589'],
  ['diners', '300', '305'],
  ['diners', '36', '36'],
  ['diners', '38', '39'],
  ['unionpay', '62', '62'],
];

/** Brand from the number's issuer identification prefix; undefined when none matches. */
export function detectBrand(number: string): CardBrand | undefined {
  if (!/^\d+$/.test(number)) return undefined;
  for (const [brand, first, last] of IIN_RANGES) {
    const prefix = number.slice(0, first.length);
    if (prefix.length === first.length && prefix >= first && prefix <= last) return brand;
  }
  return undefined;
}

/** Digits a security code may have: 3, or for amex either its 4-digit front code or the 3-digit one on its back. */
export function cvcLengths(brand: CardBrand): readonly number[] {
  return brand === 'amex' ? [3, 4] : [3];
}

/**
 * True once the expiry month is over: a card is valid through the end of that month.
 * `today` is a date as the clock gives it (YYYY-MM-DD): every payment asks, so its year
 * and month are read off the text rather than parsed as a date.
 */
export function expiryPassed(exp_month: number, exp_year: number, today: string): boolean {
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7));
  return year * 12 + month > exp_year * 12 + exp_month;
}

/** Identifies a card within one account without storing its number; the key is the account's, kept outside the data. */
export function fingerprint(number: string, key: string | Buffer): string {
  return createHmac('sha256', key).update(number).digest('hex').slice(0, 16);
}

export function last4(number: string): string {
  return number.slice(-4);
}

/** Digits, with single spaces or dashes between groups of them. */
const DIGIT_RUN = /\d+(?:[ -]\d+)*/g;

/**
 * Text with every card number in it shown as its last 4 digits, whatever field, key or
 * path it was put in: for what echoes a request (errors, traces, a form written back). A
 * card number is digits a card could have (luhnValid, a known brand), whole or in groups,
 * e.g. `4242 4242 4242 4242` beside an expiry `12 34`.
 */
export function maskCardNumbers(text: string): string {
  return text.replace(DIGIT_RUN, (run) => {
    const parts = run.split(/([ -])/);
    let out = '';
    for (let i = 0; i < parts.length; i += 2) {
      // The longest span of groups from here that is a card number.
      let digits = '';
      let card: { end: number; digits: string } | undefined;
      for (let j = i; j < parts.length && digits.length < 19; j += 2) {
        digits += parts[j];
        if (luhnValid(digits) && detectBrand(digits) !== undefined) card = { end: j, digits };
      }
      if (card) {
        out += `…${last4(card.digits)}${parts[card.end + 1] ?? ''}`;
        i = card.end;
      } else out += parts[i]! + (parts[i + 1] ?? '');
    }
    return out;
  });
}
