import { z } from 'zod';
import { Amount, type BaseObject, IdOf, ListQueryOf, Metadata } from './common.js';

export const REFUND_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer'] as const;

/** DESIGN section 4: `{payment_intent_id, amount?, reason?}`; without amount, whatever is left is refunded. */
export const RefundCreate = z.strictObject({
  payment_intent_id: IdOf('pi'),
  amount: Amount.optional(),
  reason: z.enum(REFUND_REASONS, { error: `must be one of ${REFUND_REASONS.join(', ')}` }).optional(),
  metadata: Metadata.optional(),
});
export type RefundCreate = z.output<typeof RefundCreate>;

export const RefundListQuery = ListQueryOf('re').extend({
  payment_intent_id: IdOf('pi').optional(),
  status: z.enum(['pending', 'succeeded', 'failed'], { error: 'must be pending, succeeded or failed' }).optional(),
});

export interface Refund extends BaseObject {
  object: 'refund';
  /** pending while a processor B reader completes a same-day refund. */
  status: 'pending' | 'succeeded' | 'failed';
  amount: number;
  currency: string;
  charge_id: string;
  payment_intent_id: string;
  reason: (typeof REFUND_REASONS)[number] | null;
  /** The reader a same-day processor B refund goes through. */
  terminal_reader_id: string | null;
  failure_reason: string | null;
  metadata: Record<string, string>;
}
