import { CHECKOUT_SESSION_STATUSES, type CheckoutSession } from '../../../domain/checkout.js';
import { flag, verbs } from '../../command.js';
import { listCommand } from '../../verbs.js';
import { create } from './create.js';
import { get } from './get.js';
import { checkoutSessionColumns, checkoutSessionFields } from './view.js';

export const register = verbs(
  create,
  get,
  listCommand<CheckoutSession>('checkout_sessions.list', {
    description: 'List checkout sessions, newest first',
    columns: checkoutSessionColumns,
    fields: checkoutSessionFields,
    query: () => import('../../../domain/checkout.js').then((m) => m.CheckoutSessionListQuery),
    filters: {
      status: flag.choice('--status <status>', 'Only sessions in this status', CHECKOUT_SESSION_STATUSES, { field: 'status' }),
      paymentIntent: flag.string('--payment-intent <pi_id>', 'Only the session of this payment intent', { field: 'payment_intent_id' }),
    },
    examples: ['pay checkout list --status open', 'pay checkout list --payment-intent pi_123'],
  }),
);
