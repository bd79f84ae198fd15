import type { z } from 'zod';
import { flag } from './command.js';
import { CancelError, UsageError } from './errors.js';
import type { IO } from './io/io.js';

// Flags and prompts several commands share, for values a person types at a TTY.

/**
 * A prompt's check of an answer as it is typed, by the domain schema the service applies
 * to that field: true, or the rule it breaks (the prompt shows it and asks again).
 * `read` turns the text into the field's value (a number for amounts).
 */
export function answerCheck(schema: z.ZodType, read: (text: string) => unknown = (text) => text): (text: string) => true | string {
  return (text) => {
    const result = schema.safeParse(read(text.trim()));
    if (result.success) return true;
    const message = result.error.issues[0]!.message;
    return `${message.charAt(0).toUpperCase()}${message.slice(1)}.`;
  };
}

/** A whole number typed at a prompt; anything else is left as text for the schema to refuse. */
export const wholeNumber = (text: string): unknown => (/^\d+$/.test(text) ? Number(text) : text);

/** `--amount` and `--currency`, for commands that ask for money. */
export const moneyFlags = {
  amount: flag.int('--amount <n>', 'Amount in the currency\'s minor unit, e.g. 1099 for 10.99', { field: 'amount', prompted: true }),
  currency: flag.string('--currency <code>', 'Lowercase ISO 4217 currency code, e.g. usd, eur, jpy', { field: 'currency', prompted: true }),
};

/** `--amount` and `--currency` as given, each prompted for at a TTY when missing. */
export async function moneyFrom(flags: { amount?: number | undefined; currency?: string | undefined }, io: IO): Promise<{ amount: number; currency: string }> {
  // Loaded here, not with this module: the list commands share it (confirmations) and load no schema.
  const { Amount, Currency } = await import('../domain/common.js');
  const amount = flags.amount ?? Number(await io.ask('--amount', 'Amount in the currency\'s minor unit (e.g. 1099 for 10.99)', { validate: answerCheck(Amount, wholeNumber) }));
  const currency = flags.currency ?? (await io.ask('--currency', 'Currency (three letters)', { default: 'usd', validate: answerCheck(Currency) }));
  return { amount, currency };
}

/** `--yes` of a destructive command. */
export const yesFlag = { yes: flag.bool('-y, --yes', 'Do not ask for confirmation (required where no one can be asked: scripts, --no-input)') };

/**
 * A destructive command run where no one can be asked needs --yes: said before any
 * request, naming the flag. `what` says what the command destroys or charges.
 */
export function requireYes(io: IO, yes: boolean, what: string, hint = ''): void {
  if (yes || io.canPrompt) return;
  throw new UsageError(`Missing --yes: ${what}, and no one can be asked to confirm (${io.noPromptBecause}). Add --yes${hint}.`);
}

/** Asks at a TTY unless --yes was given; a "no" cancels (exit 130) with `unchanged` said. */
export async function confirmed(io: IO, yes: boolean, question: string, unchanged: string): Promise<void> {
  if (yes) return;
  if (!(await io.confirm(question, false))) throw new CancelError(unchanged);
}

/** The one rule of destructive commands (cancels, reset, batch retries): --yes, or a person says yes at a TTY. */
export async function confirmDestructive(io: IO, yes: boolean, what: string, question: string, unchanged = 'Nothing was changed.'): Promise<void> {
  requireYes(io, yes, what);
  await confirmed(io, yes, question, unchanged);
}
