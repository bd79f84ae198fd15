import type { CheckoutSession, PaymentLink } from '../../../domain/checkout.js';
import { fieldsOf, flag } from '../../command.js';

export const checkoutSessionFields = fieldsOf<CheckoutSession>()(
  'id', 'object', 'created', 'livemode', 'status', 'payment_status', 'amount', 'currency', 'payment_intent_id', 'checkout_session_url', 'success_url', 'cancel_url',
  'customer_id', 'payment_link_id', 'expires_at', 'metadata', 'description', 'merchant_name',
);

export const paymentLinkFields = fieldsOf<PaymentLink>()('id', 'object', 'created', 'livemode', 'url', 'active', 'amount', 'currency', 'success_url', 'cancel_url', 'metadata', 'description', 'merchant_name');

/** What the hosted page shows besides the amount: checkout sessions and payment links alike. */
export const pageFlags = {
  description: flag.string('--description <text>', 'What is being paid for, shown on the page', { field: 'description' }),
  merchantName: flag.string('--merchant-name <name>', 'Your name as the customer knows it, shown on the page', { field: 'merchant_name' }),
};
