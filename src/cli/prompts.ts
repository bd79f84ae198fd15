import type { IO } from './io/io.js';

// Prompts several commands share, for values a person types at a TTY.

export async function askAmount(io: IO, flag = '--amount'): Promise<number> {
  const text = await io.ask(flag, 'Amount in the currency\'s minor unit (e.g. 1099 for 10.99)', {
    validate: (v) => (/^\d+$/.test(v.trim()) ? true : 'Enter a whole number of minor units.'),
  });
  return Number(text.trim());
}

export const askCurrency = (io: IO, flag = '--currency') => io.ask(flag, 'Currency (three letters)', { default: 'usd' });
