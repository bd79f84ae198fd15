import { z } from 'zod';
import { Amount, type BaseObject, Currency, DateString, IdOf, ListQueryOf, Metadata } from './common.js';
import { compareDates, dueDates, INTERVAL_UNITS, type IntervalUnit } from './schedule.js';

export const SUBSCRIPTION_STATUSES = ['pending', 'active', 'past_due', 'paused', 'canceled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

const IntervalUnit = z.enum(INTERVAL_UNITS, { error: 'must be week, month or year' });
const IntervalCount = z
  .number({ error: 'must be a whole number from 1 to 100' })
  .int({ error: 'must be a whole number from 1 to 100' })
  .min(1, { error: 'must be a whole number from 1 to 100' })
  .max(100, { error: 'must be a whole number from 1 to 100' });
const PlatformFee = z
  .number({ error: 'must be a whole amount in the currency\'s minor unit, 0 or more' })
  .int({ error: 'must be a whole amount in the currency\'s minor unit, 0 or more' })
  .min(0, { error: 'must be a whole amount in the currency\'s minor unit, 0 or more' });

/** The create request's fields, each with its own rule (the CLI checks flags against them before prompting). */
export const SubscriptionFields = z.strictObject({
  customer_id: IdOf('cus'),
  payment_method_id: IdOf('pm'),
  price: Amount,
  billing_cycle_anchor: DateString,
  interval_unit: IntervalUnit,
  interval_count: IntervalCount,
  currency: Currency.optional(),
  platform_fee_amount: PlatformFee.optional(),
  metadata: Metadata.optional(),
  /** `null`: no cancel date, as an update's `null` clears one. */
  cancel_at: DateString.nullable().optional(),
});

/** billing_cycle_anchor against the service's today (the sandbox clock's): the first payment is not in the past. */
export const firstPaymentDate = (today: string) => DateString.refine((date) => compareDates(date, today) >= 0, { error: `must be today (${today}) or later` });

export const SubscriptionCreate = SubscriptionFields.superRefine((value, ctx) => {
  if (value.cancel_at != null && compareDates(value.cancel_at, value.billing_cycle_anchor) <= 0) {
    ctx.addIssue({ code: 'custom', path: ['cancel_at'], message: `must be after billing_cycle_anchor (${value.billing_cycle_anchor}); for a single payment use the day after it` });
  }
  if (value.platform_fee_amount !== undefined && value.platform_fee_amount > value.price) {
    ctx.addIssue({ code: 'custom', path: ['platform_fee_amount'], message: `must not exceed price (${value.price})` });
  }
});
export type SubscriptionCreate = z.infer<typeof SubscriptionCreate>;

// Spec section 2: customer and billing cycle are fixed for life. They are named here so
// that an update naming them is answered with that rule (parameter_immutable), not as an
// unknown parameter; the meta keeps them out of the fields an update is said to take.
const Immutable = z
  .unknown()
  .refine((value) => value === undefined, {
    error: 'is immutable after creation: to change it, cancel this subscription and create a new one',
    params: { immutable: true },
  })
  .meta({ immutable: true })
  .optional();

/** Only these change after creation; `null` clears platform_fee_amount or cancel_at. */
export const SubscriptionUpdate = z.strictObject({
  payment_method_id: IdOf('pm').optional(),
  metadata: Metadata.optional(),
  platform_fee_amount: PlatformFee.nullable().optional(),
  cancel_at: DateString.nullable().optional(),
  customer_id: Immutable,
  billing_cycle_anchor: Immutable,
  interval_unit: Immutable,
  interval_count: Immutable,
});
export type SubscriptionUpdate = Pick<z.infer<typeof SubscriptionUpdate>, 'payment_method_id' | 'metadata' | 'platform_fee_amount' | 'cancel_at'>;

export const SubscriptionListQuery = ListQueryOf('sub').extend({
  status: z.enum(SUBSCRIPTION_STATUSES, { error: `must be one of ${SUBSCRIPTION_STATUSES.join(', ')}` }).optional(),
  customer_id: IdOf('cus').optional(),
});
export type SubscriptionListQuery = z.infer<typeof SubscriptionListQuery>;

export interface Subscription extends BaseObject {
  object: 'subscription';
  customer_id: string;
  payment_method_id: string;
  price: number;
  currency: string;
  billing_cycle_anchor: string;
  interval_unit: IntervalUnit;
  interval_count: number;
  platform_fee_amount: number | null;
  metadata: Record<string, string>;
  cancel_at: string | null;
  status: SubscriptionStatus;
  /** Instant of the next automatic payment attempt; null when none is scheduled (past_due, paused, canceled). */
  next_payment_at: string | null;
  latest_payment_intent_id: string | null;
  canceled_at: string | null;
}

/** Spec section 3's outcome mapping for a generated payment intent. */
export function statusAfterPayment(intentStatus: string): 'active' | 'past_due' {
  // A card attempt ends succeeded or back in requires_payment_method; anything short of
  // succeeded is a payment that did not happen.
  return intentStatus === 'succeeded' ? 'active' : 'past_due';
}

type Cycle = Pick<Subscription, 'billing_cycle_anchor' | 'interval_unit' | 'interval_count' | 'cancel_at'>;

/** Up to n due dates from payment fromIndex on, ending before cancel_at (the day it cancels). */
export function scheduledDates(s: Cycle, n: number, fromIndex = 0): string[] {
  const dates = dueDates(s.billing_cycle_anchor, s.interval_unit, s.interval_count, n, fromIndex);
  return s.cancel_at === null || s.cancel_at === undefined ? dates : dates.filter((d) => compareDates(d, s.cancel_at!) < 0);
}
