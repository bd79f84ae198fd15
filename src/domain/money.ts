// Currencies are ISO 4217 codes in lowercase; amounts are integers in the currency's
// minor unit (DESIGN section 4). Node's Intl data is the list and the exponents.

let codes: ReadonlySet<string> | undefined;

/**
 * Codes of Intl's list (or of ISO 4217) that are no money to charge in. ISO 4217's X
 * codes for special drawing rights, units of account, precious metals, testing and "no
 * currency" (xaf, xof, xpf, xcd, xcg are currencies and stay), and its fund codes. And
 * the withdrawn currencies Node 24's Intl still lists: ang (replaced by xcg, 2025), cuc
 * (2021), hrk (replaced by eur, 2023), sll (replaced by sle, 2024), zwl (replaced by zwg, 2024).
 */
const NOT_CHARGEABLE = [
  ...['xag', 'xau', 'xba', 'xbb', 'xbc', 'xbd', 'xdr', 'xpd', 'xpt', 'xsu', 'xts', 'xua', 'xxx'],
  ...['bov', 'che', 'chw', 'clf', 'cou', 'mxv', 'usn', 'uyi', 'uyw'],
  ...['ang', 'cuc', 'hrk', 'sll', 'zwl'],
];

/** True for a lowercase ISO 4217 code of a currency in circulation (`usd`, `jpy`), false for `USD`, `xyz`, `xau` or `hrk`. */
export function isCurrency(code: string): boolean {
  codes ??= new Set(Intl.supportedValuesOf('currency').map((c) => c.toLowerCase()).filter((c) => !NOT_CHARGEABLE.includes(c)));
  return codes.has(code);
}

const formatter = (currency: string) => new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() });

/** Digits of the minor unit: 2 for usd (cents), 0 for jpy, 3 for bhd. */
export function minorUnitDigits(currency: string): number {
  return formatter(currency).resolvedOptions().maximumFractionDigits ?? 2;
}

/** A field holding an amount in minor units, by the spec's names: amount, price, amount_received, tip_amount… */
export const isAmountField = (field: string) => field === 'amount' || field === 'price' || field.startsWith('amount_') || field.endsWith('_amount');

/** An amount in minor units in the currency's own format: 1099 usd → $10.99, 1000 jpy → ¥1,000. */
export function formatAmount(amount: number, currency: string): string {
  return formatter(currency).format(amount / 10 ** minorUnitDigits(currency));
}
