import { z } from 'zod';
import { detectBrand, luhnValid } from './cards.js';
import type { BaseObject } from './common.js';
import { ListQueryOf, MAX_AMOUNT } from './common.js';
import { bothIssue, parseOrThrow } from './errors.js';

// DESIGN section 7. Processor A has two models, processor B three (spec section 1).
export const PROCESSORS = ['A', 'B'] as const;
export type Processor = (typeof PROCESSORS)[number];

export const READER_MODELS = {
  A: ['a-countertop', 'a-handheld'],
  B: ['b-countertop', 'b-handheld', 'b-mobile'],
} as const satisfies Record<Processor, readonly string[]>;
export const ALL_READER_MODELS = [...READER_MODELS.A, ...READER_MODELS.B] as const;
/** The processor a model is of: each is of one. */
export const processorOf = (model: ReaderModel): Processor => PROCESSORS.find((p) => (READER_MODELS[p] as readonly string[]).includes(model))!;
/** Spec section 1, item 6: a self-owned developer reader (activated with a code) is a processor A model. */
export const SELF_OWNED_PROCESSOR = 'A' satisfies Processor;
export type ReaderModel = (typeof ALL_READER_MODELS)[number];

export const SerialNumber = z
  .string({ error: 'must be the serial number printed on the reader' })
  .regex(/^[A-Za-z0-9-]{4,40}$/, { error: 'must be 4 to 40 letters, digits or dashes' });

/** `a, b or c`: the models a message offers. */
const orList = (items: readonly string[]) => (items.length > 1 ? `${items.slice(0, -1).join(', ')} or ${items.at(-1)}` : (items[0] ?? ''));

/**
 * Spec section 1, items 3 and 6: a reader is a model of its processor, and a self-owned
 * developer reader (activated with a code) must be a processor A model.
 */
export function readerModelRule(body: { processor: Processor; model: ReaderModel }, selfOwned: boolean, ctx: z.RefinementCtx): void {
  if (selfOwned && body.processor !== SELF_OWNED_PROCESSOR) {
    ctx.addIssue({ code: 'custom', path: ['processor'], message: 'a self-owned reader must be a processor A model (processor B developer readers are ordered and arrive activated)' });
  } else if (!(READER_MODELS[body.processor] as readonly string[]).includes(body.model)) {
    ctx.addIssue({ code: 'custom', path: ['model'], message: `must be a processor ${body.processor} model: ${orList(READER_MODELS[body.processor])}` });
  }
}

// Trimmed: a code is read off one screen and typed or pasted into another.
export const ActivationCodeInput = z
  .string({ error: 'must be the activation code from POST /v1/terminal-readers/activation-codes' })
  .trim()
  .min(1, { error: 'must not be empty' });
export const ReaderLabel = z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(100, { error: 'must be at most 100 characters' });
export const ProcessorInput = z.enum(PROCESSORS, { error: 'must be A or B' });
export const ModelInput = z.enum(ALL_READER_MODELS, { error: `must be one of ${ALL_READER_MODELS.join(', ')}` });

export const ReaderActivate = z
  .strictObject({
    activation_code: ActivationCodeInput,
    serial_number: SerialNumber,
    processor: ProcessorInput,
    model: ModelInput,
    label: ReaderLabel.optional(),
  })
  .superRefine((body, ctx) => readerModelRule(body, true, ctx));
export type ReaderActivate = z.output<typeof ReaderActivate>;

export const ReaderListQuery = ListQueryOf('tmr').extend({
  processor: z.enum(PROCESSORS, { error: 'must be A or B' }).optional(),
});

/** What a test can present on a reader: an outcome, or a card number whose test-card outcome applies. */
export const PRESENT_OUTCOMES = ['approved', 'declined', 'insufficient_funds', 'expired_card', 'incorrect_cvc', 'hsa_fsa', 'partial'] as const;
export type PresentOutcome = (typeof PRESENT_OUTCOMES)[number];

/** Other words people use for the same outcomes (a decline code, "succeeded"…), accepted as these. */
const OUTCOME_SYNONYMS: Record<string, PresentOutcome> = {
  success: 'approved',
  succeeded: 'approved',
  approve: 'approved',
  decline: 'declined',
  card_declined: 'declined',
  failed: 'declined',
  card_not_supported: 'hsa_fsa',
  partial_authorization: 'partial',
};

const PresentOutcomeField = z.preprocess(
  (value) => (typeof value === 'string' ? (OUTCOME_SYNONYMS[value] ?? value) : value),
  z.enum(PRESENT_OUTCOMES, { error: `must be one of ${PRESENT_OUTCOMES.join(', ')}` }),
);

/** How the card reached the reader; kept on the charge as payment_method_details.card_present.read_method. */
export const READ_METHODS = ['tap', 'insert', 'swipe', 'wallet'] as const;
export type ReadMethod = (typeof READ_METHODS)[number];

const MinorAmount = z
  .number({ error: 'must be a non-negative integer amount' })
  .int({ error: 'must be a non-negative integer amount' })
  .min(0, { error: 'must be a non-negative integer amount' })
  .max(MAX_AMOUNT, { error: `must be at most ${MAX_AMOUNT}` });

/**
 * The tip on a payment of `amount`: the card is charged amount + tip, which is bounded
 * as an amount is. Only who knows the payment can check it: the service when a card is
 * presented (tipOn), the simulator's prompt as the tip is typed.
 */
export const TipAmount = (amount: number) =>
  MinorAmount.max(MAX_AMOUNT - amount, { error: `must be at most ${MAX_AMOUNT - amount}: amount + tip_amount is at most ${MAX_AMOUNT}, and the amount is ${amount}` });

/** A presented card's tip on a payment of `amount` (none: 0); beyond TipAmount's rule, a 400 naming tip_amount. */
export const tipOn = (amount: number, tip: number | undefined): number =>
  parseOrThrow(z.object({ tip_amount: TipAmount(amount).default(0) }), { tip_amount: tip }).tip_amount;

/** What a customer does at a reader: the fields of the present helper and of a simulator's result. */
export const ReaderPresentFields = z.strictObject({
  outcome: PresentOutcomeField.optional(),
  card_number: z
    .string({ error: 'must be a card number (see pay sandbox cards)' })
    .transform((s) => s.replace(/[\s-]/g, ''))
    .refine(luhnValid, { error: 'is not a valid card number (see pay sandbox cards)' })
    .refine((n) => detectBrand(n) !== undefined, { error: 'is not a card number of a known brand (see pay sandbox cards)' })
    .optional(),
  tip_amount: MinorAmount.optional(),
  available_amount: MinorAmount.optional(),
  method: z.enum(READ_METHODS, { error: `must be one of ${READ_METHODS.join(', ')}` }).optional(),
});

/** What only a payment takes: a same-day refund is confirmed with the customer's card, and takes neither. */
export const PAYMENT_ONLY_FIELDS = ['tip_amount', 'available_amount'] as const;

/** Approved, or paying part: the outcomes a tip or an available amount can go with. */
const PAYING_OUTCOMES: ReadonlySet<PresentOutcome | undefined> = new Set([undefined, 'approved', 'partial']);

/** What a card presented can be: an outcome or a card number, not both; a tip or an available amount only for a card that pays. */
export function outcomeOrCard(
  body: { outcome?: PresentOutcome | undefined; card_number?: string | undefined; tip_amount?: number | undefined; available_amount?: number | undefined },
  ctx: z.RefinementCtx,
): void {
  if (body.outcome !== undefined && body.card_number !== undefined) {
    ctx.addIssue(bothIssue(['outcome', 'card_number']));
  }
  if (PAYING_OUTCOMES.has(body.outcome)) return;
  for (const field of PAYMENT_ONLY_FIELDS) {
    if (body[field] !== undefined) ctx.addIssue({ code: 'custom', path: [field], message: `goes with a card that pays, and outcome ${body.outcome} declines it` });
  }
}

export const ReaderPresent = ReaderPresentFields.superRefine(outcomeOrCard);
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
  action: PendingReaderAction | null;
}

export type PendingReaderAction = { type: 'process_payment_intent'; payment_intent_id: string } | { type: 'refund_payment'; refund_id: string; payment_intent_id: string };

export interface ActivationCode extends BaseObject {
  object: 'terminal_activation_code';
  code: string;
  expires_at: string;
  used_by: string | null;
}
