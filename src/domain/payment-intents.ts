import { z } from 'zod';
import { Amount, type BaseObject, Currency, IdOf, ListQuery, ListQueryOf, Metadata } from './common.js';
import { requiredIssue } from './errors.js';
import type { CardBrand } from './cards.js';
import { PAYMENT_METHOD_TYPES, type PaymentMethodType } from './payment-methods.js';
import type { ReadMethod } from './terminal-readers.js';

/** Spec section 3. */
export const PAYMENT_INTENT_STATUSES = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_capture',
  'requires_action',
  'processing',
  'succeeded',
  'canceled',
] as const;
export type PaymentIntentStatus = (typeof PAYMENT_INTENT_STATUSES)[number];

export const CAPTURE_METHODS = ['automatic', 'manual'] as const;
export type CaptureMethod = (typeof CAPTURE_METHODS)[number];

export const CANCELLATION_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer', 'abandoned'] as const;

const PaymentMethodTypes = z
  .array(z.enum(PAYMENT_METHOD_TYPES, { error: 'each type must be card or card_present' }), { error: 'must be an array of payment method types, e.g. ["card"]' })
  .min(1, { error: 'must name at least one payment method type, e.g. ["card"]' })
  .refine((types) => new Set(types).size === types.length, { error: 'must not repeat a type' });

/** The payment method types of an intent alone: the CLI checks them before it offers payment methods of those types. */
export const PaymentIntentTypes = z.strictObject({ payment_method_types: PaymentMethodTypes });

export const PaymentIntentCreate = z
  .strictObject({
    amount: Amount,
    currency: Currency,
    payment_method_types: PaymentMethodTypes,
    confirm: z.boolean({ error: 'must be true or false' }).optional(),
    capture_method: z.enum(CAPTURE_METHODS, { error: 'must be automatic or manual' }).optional(),
    payment_method_id: IdOf('pm').optional(),
    customer_id: IdOf('cus').optional(),
    description: z.string({ error: 'must be a string' }).max(500, { error: 'must be at most 500 characters' }).optional(),
    metadata: Metadata.optional(),
  })
  .superRefine((body, ctx) => {
    // Spec section 4 rule 2: confirming needs a payment method.
    if (body.confirm === true && body.payment_method_id === undefined) {
      ctx.addIssue(requiredIssue(['payment_method_id'], 'it is required with confirm=true'));
    }
  });
export type PaymentIntentCreate = z.output<typeof PaymentIntentCreate>;

export const PaymentIntentConfirm = z.strictObject({
  payment_method_id: IdOf('pm').optional(),
});
export type PaymentIntentConfirm = z.output<typeof PaymentIntentConfirm>;

/** Only the amount (and metadata) change, and only before confirmation. */
export const PaymentIntentUpdate = z
  .strictObject({
    amount: Amount.optional(),
    description: z.string({ error: 'must be a string' }).max(500, { error: 'must be at most 500 characters' }).optional(),
    metadata: Metadata.optional(),
  })
  .superRefine((body, ctx) => {
    if (Object.keys(body).length === 0) {
      ctx.addIssue(requiredIssue(['amount'], 'give the new amount (or description, metadata) to update'));
    }
  });
export type PaymentIntentUpdate = z.output<typeof PaymentIntentUpdate>;

export const PaymentIntentCapture = z.strictObject({
  amount_to_capture: Amount.optional(),
});
export type PaymentIntentCapture = z.output<typeof PaymentIntentCapture>;

export const PaymentIntentCancel = z.strictObject({
  cancellation_reason: z.enum(CANCELLATION_REASONS, { error: `must be one of ${CANCELLATION_REASONS.join(', ')}` }).optional(),
});
export type PaymentIntentCancel = z.output<typeof PaymentIntentCancel>;

export const PaymentIntentListQuery = ListQueryOf('pi').extend({
  // Spec section 4: by subscription_id it "returns all payment attempts of a subscription", one page unless a limit is asked for.
  limit: ListQuery.shape.limit.unwrap().optional(),
  subscription_id: IdOf('sub').optional(),
  customer_id: IdOf('cus').optional(),
  status: z.enum(PAYMENT_INTENT_STATUSES, { error: `must be one of ${PAYMENT_INTENT_STATUSES.join(', ')}` }).optional(),
});
export type PaymentIntentListQuery = z.infer<typeof PaymentIntentListQuery>;

export interface PaymentError {
  type: 'card_error';
  code: string;
  message: string;
  payment_method_id: string | null;
  charge_id: string | null;
}

export interface PaymentIntent extends BaseObject {
  object: 'payment_intent';
  status: PaymentIntentStatus;
  amount: number;
  /** Amount plus tip; smaller than amount after a partial authorization. */
  amount_received: number;
  /** Authorized and not yet captured (requires_capture). */
  amount_capturable: number;
  tip_amount: number;
  currency: string;
  payment_method_types: PaymentMethodType[];
  payment_method_id: string | null;
  /** Request-side flag of the spec, kept as given at creation. */
  confirm: boolean;
  capture_method: CaptureMethod;
  customer_id: string | null;
  subscription_id: string | null;
  latest_charge_id: string | null;
  last_payment_error: PaymentError | null;
  /** With requires_action: the reader the payment was sent to. */
  next_action: { type: 'terminal_reader'; terminal_reader_id: string } | null;
  description: string | null;
  canceled_at: string | null;
  cancellation_reason: string | null;
  metadata: Record<string, string>;
}

export interface CardPresentDetails {
  brand: CardBrand;
  last4: string;
  read_method: ReadMethod;
}

export type ChargeStatus = 'succeeded' | 'failed' | 'canceled';

export interface Charge extends BaseObject {
  object: 'charge';
  /** succeeded also on a partial authorization; failed for a declined attempt; canceled when an uncaptured authorization was released. */
  status: ChargeStatus;
  amount: number;
  amount_authorized: number;
  amount_captured: number;
  amount_refunded: number;
  captured: boolean;
  refunded: boolean;
  currency: string;
  payment_intent_id: string;
  payment_method_id: string;
  customer_id: string | null;
  subscription_id: string | null;
  failure_code: string | null;
  failure_message: string | null;
  payment_method_details: {
    type: PaymentMethodType;
    card: { brand: string; last4: string; exp_month: number; exp_year: number; fingerprint: string } | null;
    terminal_reader_id: string | null;
    processor: 'A' | 'B' | null;
    /** In person: the card the customer presented and how it was read. */
    card_present: CardPresentDetails | null;
  };
}

export const ChargeListQuery = ListQueryOf('ch').extend({
  payment_intent_id: IdOf('pi').optional(),
  customer_id: IdOf('cus').optional(),
});
