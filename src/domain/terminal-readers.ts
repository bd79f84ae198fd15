import { z } from 'zod';
import { luhnValid } from './cards.js';
import type { BaseObject } from './common.js';
import { ListQuery } from './common.js';

// DESIGN section 7. Processor A has two models, processor B three (spec section 1).
export const PROCESSORS = ['A', 'B'] as const;
export type Processor = (typeof PROCESSORS)[number];

export const READER_MODELS = {
  A: ['a-countertop', 'a-handheld'],
  B: ['b-countertop', 'b-handheld', 'b-mobile'],
} as const satisfies Record<Processor, readonly string[]>;
export const ALL_READER_MODELS = [...READER_MODELS.A, ...READER_MODELS.B] as const;
export type ReaderModel = (typeof ALL_READER_MODELS)[number];

export const SerialNumber = z
  .string({ error: 'must be the serial number printed on the reader' })
  .regex(/^[A-Za-z0-9-]{4,40}$/, { error: 'must be 4 to 40 letters, digits or dashes' });

/** A self-owned developer reader must be a processor A model (spec section 1, item 6). */
export const ReaderActivate = z
  .strictObject({
    activation_code: z.string({ error: 'must be the activation code from POST /v1/terminal-readers/activation-codes' }).min(1, { error: 'must not be empty' }),
    serial_number: SerialNumber,
    processor: z.enum(PROCESSORS, { error: 'must be A or B' }),
    model: z.enum(ALL_READER_MODELS, { error: `must be one of ${ALL_READER_MODELS.join(', ')}` }),
    label: z.string({ error: 'must be a string' }).min(1).max(100, { error: 'must be at most 100 characters' }).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.processor !== 'A') {
      ctx.addIssue({ code: 'custom', path: ['processor'], message: 'a self-owned reader must be a processor A model (processor B developer readers are ordered and arrive activated)' });
    } else if (!(READER_MODELS.A as readonly string[]).includes(body.model)) {
      ctx.addIssue({ code: 'custom', path: ['model'], message: `must be a processor A model: ${READER_MODELS.A.join(' or ')}` });
    }
  });
export type ReaderActivate = z.output<typeof ReaderActivate>;

export const ReaderListQuery = ListQuery.extend({
  processor: z.enum(PROCESSORS, { error: 'must be A or B' }).optional(),
});

/** What a test can present on a reader: an outcome, or a card number whose test-card outcome applies. */
export const PRESENT_OUTCOMES = ['approved', 'declined', 'insufficient_funds', 'expired_card', 'incorrect_cvc', 'hsa_fsa'] as const;
export type PresentOutcome = (typeof PRESENT_OUTCOMES)[number];

export const ReaderPresent = z
  .strictObject({
    outcome: z.enum(PRESENT_OUTCOMES, { error: `must be one of ${PRESENT_OUTCOMES.join(', ')}` }).optional(),
    card_number: z
      .string({ error: 'must be a card number (see pay sandbox cards)' })
      .transform((s) => s.replace(/[\s-]/g, ''))
      .refine(luhnValid, { error: 'is not a valid card number (see pay sandbox cards)' })
      .optional(),
    tip_amount: z.number({ error: 'must be a non-negative integer amount' }).int({ error: 'must be a non-negative integer amount' }).min(0, { error: 'must be a non-negative integer amount' }).max(99_999_999).optional(),
    available_amount: z.number({ error: 'must be a non-negative integer amount' }).int({ error: 'must be a non-negative integer amount' }).min(0, { error: 'must be a non-negative integer amount' }).max(99_999_999).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.outcome !== undefined && body.card_number !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['card_number'], message: 'give outcome or card_number, not both' });
    }
  });
export type ReaderPresent = z.output<typeof ReaderPresent>;

export interface TerminalReader extends BaseObject {
  object: 'terminal_reader';
  serial_number: string;
  processor: Processor;
  model: ReaderModel;
  label: string;
  device_type: 'developer' | 'self_owned';
  /** The live connection: online only while a reader is connected. */
  status: 'online' | 'offline';
  activated_at: string;
  /** The payment or refund the reader is working on, if any. */
  action: { type: 'process_payment_intent'; payment_intent_id: string } | { type: 'refund_payment'; refund_id: string; payment_intent_id: string } | null;
}

export interface ActivationCode extends BaseObject {
  object: 'terminal_activation_code';
  code: string;
  expires_at: string;
  used_by: string | null;
}
