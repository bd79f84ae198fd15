import type { PaymentLink } from '../../../domain/checkout.js';
import { formatAmount } from '../../../domain/money.js';
import { fieldsOf } from '../../command.js';
import type { Column } from '../../io/io.js';

export const paymentLinkColumns: Column<PaymentLink>[] = [
  { header: 'ID', value: (l) => l.id },
  { header: 'ACTIVE', value: (l) => l.active },
  { header: 'AMOUNT', value: (l) => formatAmount(l.amount, l.currency) },
  { header: 'URL', value: (l) => l.url },
  { header: 'CREATED', value: (l) => l.created },
];

export const paymentLinkFields = fieldsOf<PaymentLink>()('id', 'object', 'created', 'livemode', 'url', 'active', 'amount', 'currency', 'success_url', 'cancel_url', 'metadata', 'description', 'merchant_name');
