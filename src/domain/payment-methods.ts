import { z } from 'zod';
import { cvcLengths, detectBrand, luhnValid, type CardBrand } from './cards.js';
import { type BaseObject, IdOf, ListQueryOf, Metadata } from './common.js';

// Card numbers may be typed with spaces or dashes; the rules see digits only. No message
// here ever repeats the number or the cvc.
const CardNumber = z
  .string({ error: 'must be the card number as a string of digits' })
  .transform((s) => s.replace(/[\s-]/g, ''))
  .refine(luhnValid, { error: 'is not a valid card number (check the digits)' })
  .refine((n) => detectBrand(n) !== undefined, { error: 'is not a card number of a known brand' });

const ExpMonth = z
  .number({ error: 'must be the expiry month as an integer from 1 to 12' })
  .int({ error: 'must be the expiry month as an integer from 1 to 12' })
  .min(1, { error: 'must be the expiry month as an integer from 1 to 12' })
  .max(12, { error: 'must be the expiry month as an integer from 1 to 12' });

const EXP_YEAR_RULE = 'must be the four-digit expiry year, from 2000 to 2099, e.g. 2030';
const ExpYear = z.number({ error: EXP_YEAR_RULE }).int({ error: EXP_YEAR_RULE }).min(2000, { error: EXP_YEAR_RULE }).max(2099, { error: EXP_YEAR_RULE });

export const CardInput = z
  .strictObject({
    number: CardNumber,
    exp_month: ExpMonth,
    exp_year: ExpYear,
    cvc: z.string({ error: 'must be the 3 or 4 digit security code as a string' }).regex(/^\d{3,4}$/, { error: 'must be the 3 or 4 digit security code' }),
  })
  .superRefine((card, ctx) => {
    const brand = detectBrand(card.number)!;
    const lengths = cvcLengths(brand);
    if (!lengths.includes(card.cvc.length)) {
      ctx.addIssue({ code: 'custom', path: ['cvc'], message: `must be ${lengths.join(' or ')} digits for ${brand} cards` });
    }
  });
export type CardInput = z.output<typeof CardInput>;

const BillingDetails = z.strictObject({
  address: z.strictObject({
    zip: z.string({ error: 'must be a postal code string' }).regex(/^[A-Za-z0-9 -]{3,10}$/, { error: 'must be a postal code of 3 to 10 letters, digits, spaces or dashes' }).optional(),
  }).optional(),
});

/**
 * An expiry as people type it: `MMYY`, `MMYYYY`, or month and year apart by `/`, `-` or a
 * space (`MM/YY`, `MM / YY`, `MM-YY`, `M/YY`, `MM/YYYY`); undefined for anything else.
 * Ranges are the schema's to check.
 */
export function parseExpiry(text: string): { exp_month: number; exp_year: number } | undefined {
  // A month of one digit needs its separator: `123` could be 1/23 or 12/3.
  const match = /^\s*(?:(\d{2})|(\d{1,2})\s*[\s/-]\s*)(\d{2}|\d{4})\s*$/.exec(text);
  if (!match) return undefined;
  const year = Number(match[3]);
  return { exp_month: Number(match[1] ?? match[2]), exp_year: year < 100 ? 2000 + year : year };
}

export const PAYMENT_METHOD_TYPES = ['card', 'card_present'] as const;
export type PaymentMethodType = (typeof PAYMENT_METHOD_TYPES)[number];

/** Spec section 4: a card online, or a card presented on a named terminal reader. */
export const PaymentMethodCreate = z.discriminatedUnion(
  'type',
  [
    z.strictObject({
      type: z.literal('card'),
      card: CardInput,
      billing_details: BillingDetails.optional(),
      metadata: Metadata.optional(),
    }),
    z.strictObject({
      type: z.literal('card_present'),
      terminal_reader_id: IdOf('tmr'),
      billing_details: BillingDetails.optional(),
      metadata: Metadata.optional(),
    }),
  ],
  { error: 'must be card or card_present' },
);
export type PaymentMethodCreate = z.output<typeof PaymentMethodCreate>;

export const PaymentMethodAttach = z.strictObject({ customer_id: IdOf('cus') });

export const PaymentMethodListQuery = ListQueryOf('pm').extend({
  customer_id: IdOf('cus').optional(),
  type: z.enum(PAYMENT_METHOD_TYPES, { error: 'must be card or card_present' }).optional(),
});

/** What the sandbox keeps of a card: never its number or cvc. */
export interface CardDetails {
  brand: CardBrand;
  last4: string;
  exp_month: number;
  exp_year: number;
  fingerprint: string;
}

export interface PaymentMethod extends BaseObject {
  object: 'payment_method';
  type: PaymentMethodType;
  card: CardDetails | null;
  billing_details: { address: { zip: string | null } };
  terminal_reader_id: string | null;
  customer_id: string | null;
  metadata: Record<string, string>;
}
