import type { PaymentLink } from '../../../domain/checkout.js';
import { verbs } from '../../command.js';
import { getCommand, listCommand } from '../../verbs.js';
import { create } from './create.js';
import { paymentLinkColumns, paymentLinkFields } from './view.js';

export const register = verbs(
  create,
  getCommand<PaymentLink>('payment_links.get', { description: 'Show a payment link', id: 'Payment link id (plink_…)', fields: paymentLinkFields, examples: ['pay payment-links get plink_123'] }),
  listCommand<PaymentLink>('payment_links.list', {
    description: 'List payment links, newest first',
    columns: paymentLinkColumns,
    fields: paymentLinkFields,
    query: () => import('../../../domain/checkout.js').then((m) => m.PaymentLinkListQuery),
    examples: ['pay payment-links list', 'pay payment-links list --all --json | jq -r \'.data[].url\''],
  }),
);
