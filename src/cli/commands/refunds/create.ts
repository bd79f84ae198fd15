import { formatAmount } from '../../../domain/money.js';
import { REFUND_REASONS, type Refund, RefundCreate } from '../../../domain/refunds.js';
import { bodyFrom, defineCommand, flag } from '../../command.js';
import { refundFields } from './view.js';

const flags = {
  paymentIntent: flag.string('--payment-intent <pi_id>', 'Payment intent to refund', { field: 'payment_intent_id', prompted: true }),
  amount: flag.int('--amount <n>', 'Amount to refund (default: all that is left)', { field: 'amount' }),
  reason: flag.choice('--reason <reason>', 'Why', REFUND_REASONS, { field: 'reason' }),
  metadata: flag.keyValue('--metadata <key=value>', 'Metadata pair (repeatable)', { field: 'metadata' }),
};

export const create = defineCommand({
  name: 'create',
  description: 'Refund a succeeded payment intent, fully or in part (refunds never exceed what was captured)',
  flags,
  examples: ['pay refunds create --payment-intent pi_123', 'pay refunds create --payment-intent pi_123 --amount 500 --reason requested_by_customer'],
  fields: refundFields,
  async run(options, f) {
    const paymentIntent = options.paymentIntent ?? (await f.io.ask('--payment-intent', 'Payment intent to refund (pi_…)'));
    const body = bodyFrom(RefundCreate, flags, { ...options, paymentIntent });
    const client = await f.client();
    const refund = await client.call<Refund>('refunds.create', { body });
    if (f.io.human) {
      if (refund.status === 'pending') f.io.success(`Refund ${refund.id} is pending on reader ${refund.terminal_reader_id}: confirm it there`);
      else f.io.success(`Refunded ${formatAmount(refund.amount, refund.currency)} (${refund.id})`);
    }
    f.io.printObject(refund);
    return refund;
  },
});
