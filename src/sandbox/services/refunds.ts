import type { ListQuery } from '../../domain/common.js';
import { ApiError, invalid, invalidState } from '../../domain/errors.js';
import type { Charge, PaymentIntent } from '../../domain/payment-intents.js';
import type { Refund, RefundCreate } from '../../domain/refunds.js';
import { dateOf } from '../../domain/schedule.js';
import type { TerminalReader } from '../../domain/terminal-readers.js';
import type { ServiceContext } from './context.js';
import { getPaymentIntent, intentEventData } from './payment-intents.js';
import { getReader, pushToReader, readerBusy, setReaderAction } from './terminal-readers.js';

/**
 * Spec section 8, rules 3 and 4: a refund of an in-person processor B payment made the
 * same (clock) day must go through its reader, which must be online. Processor A and
 * later days refund without the reader.
 */
function readerForRefund(ctx: ServiceContext, charge: Charge): TerminalReader | undefined {
  const details = charge.payment_method_details;
  if (details.type !== 'card_present' || details.processor !== 'B' || dateOf(charge.created) !== ctx.today) return undefined;
  const reader = getReader(ctx, details.terminal_reader_id!);
  if (reader.status !== 'online') {
    throw new ApiError(
      409,
      'terminal_reader_offline',
      `Same-day refunds of processor B in-person payments go through the terminal reader, and reader ${reader.id} is offline. Power it on and connect it, then retry (from tomorrow on, refunds need no reader).`,
    );
  }
  const { action } = reader;
  if (action !== null) throw readerBusy({ ...reader, action });
  return reader;
}

export function createRefund(ctx: ServiceContext, body: RefundCreate): Refund {
  const intent = getPaymentIntent(ctx, body.payment_intent_id, 'payment_intent_id');
  if (intent.status !== 'succeeded') throw invalidState('payment intent', intent.id, intent.status, 'refund');
  const charge = ctx.get<Charge>('charge', intent.latest_charge_id!);
  const refundable = charge.amount_captured - committedRefunds(ctx, charge);
  if (refundable <= 0) throw new ApiError(409, 'invalid_state', `Cannot refund payment intent ${intent.id}: its status is succeeded and its charge ${charge.id} is already fully refunded.`);
  const amount = body.amount ?? refundable;
  if (amount > refundable) {
    throw invalid('amount', `Invalid amount: at most ${refundable} can be refunded (${charge.amount_captured} captured, ${charge.amount_captured - refundable} already refunded or pending).`);
  }
  const reader = readerForRefund(ctx, charge);
  const refund = ctx.create<Refund>('refund', {
    status: reader ? 'pending' : 'succeeded',
    amount,
    currency: charge.currency,
    charge_id: charge.id,
    payment_intent_id: intent.id,
    reason: body.reason ?? null,
    terminal_reader_id: reader?.id ?? null,
    failure_reason: null,
    metadata: body.metadata ?? {},
  });
  if (!reader) return completeRefund(ctx, intent, charge, refund);
  setReaderAction(ctx, reader, { type: 'refund_payment', refund_id: refund.id, payment_intent_id: intent.id });
  ctx.emit('charge.refund.pending', refund, { ...intentEventData(intent), charge_id: charge.id });
  pushToReader(ctx, reader.id, { type: 'refund_payment', refund_id: refund.id, payment_intent_id: intent.id, amount, currency: refund.currency });
  return refund;
}

/** Succeeded and pending refunds of a charge: what is no longer refundable. */
function committedRefunds(ctx: ServiceContext, charge: Charge): number {
  const pending = ctx
    .list<Refund>('refund', { limit: 10_000, filters: { payment_intent_id: charge.payment_intent_id, status: 'pending' } })
    .data.filter((r) => r.charge_id === charge.id)
    .reduce((sum, r) => sum + r.amount, 0);
  return charge.amount_refunded + pending;
}

function completeRefund(ctx: ServiceContext, intent: PaymentIntent, charge: Charge, refund: Refund): Refund {
  const amountRefunded = charge.amount_refunded + refund.amount;
  const refunded = ctx.update<Charge>({ ...charge, amount_refunded: amountRefunded, refunded: amountRefunded >= charge.amount_captured });
  const done = refund.status === 'succeeded' ? refund : ctx.update<Refund>({ ...refund, status: 'succeeded' });
  ctx.emit('charge.refunded', refunded, { ...intentEventData(intent), refund_id: done.id });
  return done;
}

/**
 * The reader's answer to a same-day refund it was sent: approved completes it, otherwise
 * it fails, for `failureReason`.
 */
export function settleRefundOnReader(ctx: ServiceContext, reader: TerminalReader, refundId: string, approved: boolean, failureReason = 'The refund was declined on the terminal reader.'): Refund {
  setReaderAction(ctx, reader, null);
  const refund = getRefund(ctx, refundId);
  if (refund.status !== 'pending') throw invalidState('refund', refund.id, refund.status, 'complete');
  const intent = getPaymentIntent(ctx, refund.payment_intent_id);
  if (approved) return completeRefund(ctx, intent, ctx.get<Charge>('charge', refund.charge_id), refund);
  const failed = ctx.update<Refund>({ ...refund, status: 'failed', failure_reason: failureReason });
  ctx.emit('charge.refund.failed', failed, { ...intentEventData(intent), charge_id: refund.charge_id });
  return failed;
}

/**
 * A reader gone offline in the middle of a same-day refund: the refund does not go
 * through (spec section 8, rule 3), as one started on an offline reader is refused.
 */
export function failRefundOnOfflineReader(ctx: ServiceContext, readerId: string): void {
  const reader = getReader(ctx, readerId);
  if (reader.action?.type !== 'refund_payment') return;
  settleRefundOnReader(ctx, reader, reader.action.refund_id, false, `The terminal reader ${reader.id} went offline before the customer confirmed the refund; it did not go through.`);
}

export const getRefund = (ctx: ServiceContext, id: string) => ctx.get<Refund>('refund', id);

export const listRefunds = (ctx: ServiceContext, query: ListQuery & { payment_intent_id?: string | undefined; status?: Refund['status'] | undefined }) =>
  ctx.list<Refund>('refund', { limit: query.limit, starting_after: query.starting_after, filters: { payment_intent_id: query.payment_intent_id, status: query.status } });
