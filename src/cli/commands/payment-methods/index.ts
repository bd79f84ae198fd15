import { PAYMENT_METHOD_TYPES, type PaymentMethod } from '../../../domain/payment-methods.js';
import { flag, verbs } from '../../command.js';
import { getCommand, listCommand } from '../../verbs.js';
import { attach } from './attach.js';
import { create } from './create.js';
import { paymentMethodColumns, paymentMethodFields } from './view.js';

export const register = verbs(
  create,
  attach,
  getCommand<PaymentMethod>('payment_methods.get', {
    description: 'Show a payment method (brand, last 4 digits, expiry; never the number)',
    id: 'Payment method id (pm_…)',
    fields: paymentMethodFields,
    examples: ['pay payment-methods get pm_123', 'pay payment-methods get pm_123 --json'],
  }),
  listCommand<PaymentMethod>('payment_methods.list', {
    description: 'List payment methods, newest first',
    columns: paymentMethodColumns,
    fields: paymentMethodFields,
    query: () => import('../../../domain/payment-methods.js').then((m) => m.PaymentMethodListQuery),
    filters: {
      customer: flag.string('--customer <cus_id>', 'Only those attached to this customer', { field: 'customer_id' }),
      type: flag.choice('--type <type>', 'Only this type', PAYMENT_METHOD_TYPES, { field: 'type' }),
    },
    examples: ['pay payment-methods list --customer cus_123', 'pay payment-methods list --type card --json'],
  }),
);
