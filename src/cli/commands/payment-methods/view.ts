import type { PaymentMethod } from '../../../domain/payment-methods.js';
import { fieldsOf } from '../../command.js';
import type { Column } from '../../io/io.js';

export const paymentMethodColumns: Column<PaymentMethod>[] = [
  { header: 'ID', value: (p) => p.id },
  { header: 'TYPE', value: (p) => p.type },
  { header: 'CARD', value: (p) => (p.card ? `${p.card.brand} •••• ${p.card.last4} ${String(p.card.exp_month).padStart(2, '0')}/${p.card.exp_year}` : p.terminal_reader_id) },
  { header: 'CUSTOMER', value: (p) => p.customer_id },
  { header: 'CREATED', value: (p) => p.created },
];

export const paymentMethodFields = fieldsOf<PaymentMethod>()('id', 'object', 'created', 'livemode', 'type', 'card', 'billing_details', 'terminal_reader_id', 'customer_id', 'metadata');
