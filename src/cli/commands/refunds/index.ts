import type { Refund } from '../../../domain/refunds.js';
import { flag, verbs } from '../../command.js';
import { getCommand, listCommand } from '../../verbs.js';
import { create } from './create.js';
import { refundColumns, refundFields } from './view.js';

export const register = verbs(
  create,
  getCommand<Refund>('refunds.get', { description: 'Show a refund', id: 'Refund id (re_…)', fields: refundFields, examples: ['pay refunds get re_123'] }),
  listCommand<Refund>('refunds.list', {
    description: 'List refunds, newest first',
    columns: refundColumns,
    fields: refundFields,
    query: () => import('../../../domain/refunds.js').then((m) => m.RefundListQuery),
    filters: {
      paymentIntent: flag.string('--payment-intent <pi_id>', 'Only the refunds of this payment intent', { field: 'payment_intent_id' }),
      status: flag.choice('--status <status>', 'Only refunds in this status', ['pending', 'succeeded', 'failed'], { field: 'status' }),
    },
    examples: ['pay refunds list --payment-intent pi_123'],
  }),
);
