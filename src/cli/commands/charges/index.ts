import type { Charge } from '../../../domain/payment-intents.js';
import { flag, verbs } from '../../command.js';
import { getCommand, listCommand } from '../../verbs.js';
import { chargeColumns, chargeFields } from '../intents/view.js';

export const register = verbs(
  getCommand<Charge>('charges.get', {
    description: 'Show a charge (amount_captured below amount means a partial authorization)',
    id: 'Charge id (ch_…)',
    fields: chargeFields,
    examples: ['pay charges get ch_123'],
  }),
  listCommand<Charge>('charges.list', {
    description: 'List charges, newest first: one per payment attempt',
    columns: chargeColumns,
    fields: chargeFields,
    query: () => import('../../../domain/payment-intents.js').then((m) => m.ChargeListQuery),
    filters: {
      paymentIntent: flag.string('--payment-intent <pi_id>', 'Only the charges of this payment intent', { field: 'payment_intent_id' }),
      customer: flag.string('--customer <cus_id>', 'Only this customer\'s', { field: 'customer_id' }),
    },
    examples: ['pay charges list --payment-intent pi_123'],
  }),
);
