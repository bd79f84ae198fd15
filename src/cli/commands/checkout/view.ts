import type { CheckoutSession } from '../../../domain/checkout.js';
import { formatAmount } from '../../../domain/money.js';
import { fieldsOf, flag } from '../../command.js';
import type { Column } from '../../io/io.js';

export const checkoutSessionColumns: Column<CheckoutSession>[] = [
  { header: 'ID', value: (s) => s.id },
  { header: 'STATUS', value: (s) => s.status },
  { header: 'PAYMENT', value: (s) => s.payment_status },
  { header: 'AMOUNT', value: (s) => formatAmount(s.amount, s.currency) },
  { header: 'INTENT', value: (s) => s.payment_intent_id },
  { header: 'EXPIRES', value: (s) => s.expires_at },
  { header: 'CREATED', value: (s) => s.created },
];

export const checkoutSessionFields = fieldsOf<CheckoutSession>()(
  'id', 'object', 'created', 'livemode', 'status', 'payment_status', 'amount', 'currency', 'payment_intent_id', 'checkout_session_url', 'success_url', 'cancel_url',
  'customer_id', 'payment_link_id', 'expires_at', 'metadata', 'description', 'merchant_name',
);

/** What the hosted page shows besides the amount: checkout sessions and payment links alike. */
export const pageFlags = {
  description: flag.string('--description <text>', 'What is being paid for, shown on the page', { field: 'description' }),
  merchantName: flag.string('--merchant-name <name>', 'Your name as the customer knows it, shown on the page', { field: 'merchant_name' }),
};
