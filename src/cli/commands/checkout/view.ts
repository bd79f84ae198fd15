import type { CheckoutSession, PaymentLink } from '../../../domain/checkout.js';
import { fieldsOf } from '../../command.js';

export const checkoutSessionFields = fieldsOf<CheckoutSession>()(
  'id', 'object', 'created', 'livemode', 'status', 'payment_status', 'amount', 'currency', 'payment_intent_id', 'checkout_session_url', 'success_url', 'cancel_url',
  'customer_id', 'payment_link_id', 'expires_at', 'metadata',
);

export const paymentLinkFields = fieldsOf<PaymentLink>()('id', 'object', 'created', 'livemode', 'url', 'active', 'amount', 'currency', 'success_url', 'cancel_url', 'metadata');
