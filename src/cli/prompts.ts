import { flag } from './command.js';
import type { IO } from './io/io.js';

// Flags and prompts several commands share, for values a person types at a TTY.

/** `--amount` and `--currency`, for commands that ask for money. */
export const moneyFlags = {
  amount: flag.int('--amount <n>', 'Amount in the currency\'s minor unit, e.g. 1099 for 10.99', { field: 'amount' }),
  currency: flag.string('--currency <code>', 'Lowercase ISO 4217 currency code, e.g. usd, eur, jpy', { field: 'currency' }),
};

async function askAmount(io: IO): Promise<number> {
  const text = await io.ask('--amount', 'Amount in the currency\'s minor unit (e.g. 1099 for 10.99)', {
    validate: (v) => (/^\d+$/.test(v.trim()) ? true : 'Enter a whole number of minor units.'),
  });
  return Number(text.trim());
}

/** `--amount` and `--currency` as given, each prompted for at a TTY when missing. */
export async function moneyFrom(flags: { amount?: number | undefined; currency?: string | undefined }, io: IO): Promise<{ amount: number; currency: string }> {
  const amount = flags.amount ?? (await askAmount(io));
  const currency = flags.currency ?? (await io.ask('--currency', 'Currency (three letters)', { default: 'usd' }));
  return { amount, currency };
}
