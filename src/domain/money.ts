// Currencies are ISO 4217 codes in lowercase; amounts are integers in the currency's
// minor unit (DESIGN section 4). Node's Intl data is the list and the exponents.

let codes: ReadonlySet<string> | undefined;

/** True for a lowercase ISO 4217 code in circulation (`usd`, `jpy`), false for `USD` or `xyz`. */
export function isCurrency(code: string): boolean {
  codes ??= new Set(Intl.supportedValuesOf('currency').map((c) => c.toLowerCase()));
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
