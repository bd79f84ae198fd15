import { formatAmount } from '../../../domain/money.js';
import type { Refund } from '../../../domain/refunds.js';
import { fieldsOf } from '../../command.js';
import type { Column } from '../../io/io.js';

export const refundColumns: Column<Refund>[] = [
  { header: 'ID', value: (r) => r.id },
  { header: 'STATUS', value: (r) => r.status },
  { header: 'AMOUNT', value: (r) => formatAmount(r.amount, r.currency) },
  { header: 'CURRENCY', value: (r) => r.currency },
  { header: 'INTENT', value: (r) => r.payment_intent_id },
  { header: 'REASON', value: (r) => r.reason },
  { header: 'CREATED', value: (r) => r.created },
];

export const refundFields = fieldsOf<Refund>()(
  'id', 'object', 'created', 'livemode', 'status', 'amount', 'currency', 'charge_id', 'payment_intent_id', 'reason', 'terminal_reader_id', 'failure_reason', 'metadata',
);
