import { formatAmount } from '../../../domain/money.js';
import type { Charge, PaymentIntent } from '../../../domain/payment-intents.js';
import { fieldsOf } from '../../command.js';
import type { Factory } from '../../factory.js';
import type { Column } from '../../io/io.js';

export const intentColumns: Column<PaymentIntent>[] = [
  { header: 'ID', value: (p) => p.id },
  { header: 'STATUS', value: (p) => p.status },
  { header: 'AMOUNT', value: (p) => formatAmount(p.amount, p.currency) },
  { header: 'RECEIVED', value: (p) => formatAmount(p.amount_received, p.currency) },
  { header: 'CUSTOMER', value: (p) => p.customer_id },
  { header: 'SUBSCRIPTION', value: (p) => p.subscription_id },
  { header: 'CREATED', value: (p) => p.created },
];

export const chargeColumns: Column<Charge>[] = [
  { header: 'ID', value: (c) => c.id },
  { header: 'STATUS', value: (c) => c.status },
  { header: 'AMOUNT', value: (c) => formatAmount(c.amount, c.currency) },
  { header: 'CAPTURED', value: (c) => formatAmount(c.amount_captured, c.currency) },
  { header: 'REFUNDED', value: (c) => formatAmount(c.amount_refunded, c.currency) },
  { header: 'INTENT', value: (c) => c.payment_intent_id },
  { header: 'CREATED', value: (c) => c.created },
];

export const intentFields = fieldsOf<PaymentIntent>()(
  'id', 'object', 'created', 'livemode', 'status', 'amount', 'amount_received', 'amount_capturable', 'tip_amount', 'currency', 'payment_method_types',
  'payment_method_id', 'confirm', 'capture_method', 'customer_id', 'subscription_id', 'latest_charge_id', 'last_payment_error', 'next_action', 'description',
  'canceled_at', 'cancellation_reason', 'metadata',
);

export const chargeFields = fieldsOf<Charge>()(
  'id', 'object', 'created', 'livemode', 'status', 'amount', 'amount_authorized', 'amount_captured', 'amount_refunded', 'captured', 'refunded', 'currency',
  'payment_intent_id', 'payment_method_id', 'customer_id', 'subscription_id', 'failure_code', 'failure_message', 'payment_method_details',
);

/** The intent, with a word at a TTY on what happened and what comes next. */
export function showIntent(f: Factory, intent: PaymentIntent, verb: string): void {
  if (f.io.human) {
    f.io.success(`${verb} payment intent ${intent.id}: ${intent.status}`);
    if (intent.next_action) {
      const reader = intent.next_action.terminal_reader_id;
      f.io.info(`  Waiting for a card on reader ${reader}. In the sandbox: answer on pay terminal simulate, or run pay readers present ${reader}`);
    }
    // Said once the card's answer is known: a manual intent captured for less is a choice, not a partial authorization.
    const partial =
      intent.status === 'requires_capture' ? { amount: intent.amount_capturable, word: 'authorized' }
      : intent.status === 'succeeded' && intent.capture_method === 'automatic' ? { amount: intent.amount_received, word: 'received' }
      : undefined;
    if (partial && partial.amount < intent.amount) {
      f.io.warn(`Partial authorization: ${formatAmount(partial.amount, intent.currency)} of ${formatAmount(intent.amount, intent.currency)} ${partial.word}.`);
    }
  }
  f.io.printObject(intent);
}
