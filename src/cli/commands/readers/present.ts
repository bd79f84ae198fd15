import { PRESENT_OUTCOMES, READ_METHODS, ReaderPresent } from '../../../domain/terminal-readers.js';
import type { PaymentIntent } from '../../../domain/payment-intents.js';
import type { Refund } from '../../../domain/refunds.js';
import { arg, bodyFrom, defineCommand, flag } from '../../command.js';
import { DeclinedError } from '../../errors.js';
import { intentFields } from '../intents/view.js';
import { refundFields } from '../refunds/view.js';

const flags = {
  outcome: flag.choice('--outcome <outcome>', `What the card does: ${PRESENT_OUTCOMES.join(', ')} (default approved)`, PRESENT_OUTCOMES, { field: 'outcome' }),
  card: flag.string('--card <number>', 'Present this test card instead: its outcome applies (e.g. 3566002020360505, jcb: processor B only)', { field: 'card_number', conflicts: ['cardNumber'] }),
  cardNumber: flag.string('--card-number <number>', 'Same as --card', { field: 'card_number' }),
  tipAmount: flag.int('--tip-amount <n>', 'Tip the customer adds on the reader, in minor units (amount_received = amount + tip)', { field: 'tip_amount' }),
  availableAmount: flag.int('--available-amount <n>', 'What the card can cover: below the total, only this is captured (partial authorization)', { field: 'available_amount' }),
  method: flag.choice('--method <method>', 'How the card is read (default tap)', READ_METHODS, { field: 'method' }),
};

export const present = defineCommand({
  name: 'present',
  description: 'Sandbox only: present a card on a reader that waits for one (a requires_action intent, or a same-day processor B refund); a declined card exits 6, for a payment or a refund',
  args: { id: arg.required('<id>', 'Terminal reader id (tmr_…)') },
  flags,
  examples: [
    'pay readers present tmr_123                       # approved',
    'pay readers present tmr_123 --tip-amount 200',
    'pay readers present tmr_123 --available-amount 700   # partial authorization',
    'pay readers present tmr_123 --outcome insufficient_funds',
    'pay readers present tmr_123 --card 3566002020360505',
  ],
  // The reader was waiting for an intent or a refund: the answer is that object.
  fields: [...new Set([...intentFields, ...refundFields])],
  async run(options, f) {
    const body = bodyFrom(ReaderPresent, flags, options);
    const client = await f.client();
    const result = await client.call<PaymentIntent | Refund>('test_helpers.reader_present', { params: { id: options.id }, body });
    const declined = declineOf(result, options.id);
    if (f.io.human && !declined) f.io.success(`Card presented on ${options.id}: ${result.object} ${result.id} is ${result.status}`);
    f.io.printObject(result);
    if (declined) throw declined;
  },
});

/**
 * A card the reader declined, shown and then exit 6 as any decline: a payment's intent
 * waits for another attempt; a same-day refund failed for good, and another is created.
 */
function declineOf(result: PaymentIntent | Refund, readerId: string): DeclinedError | undefined {
  if (result.object === 'refund') {
    if (result.status !== 'failed') return undefined;
    return new DeclinedError(
      `Card declined on ${readerId}: ${result.failure_reason} Refund ${result.id} of payment intent ${result.payment_intent_id} is failed: create the refund again to retry.`,
      'card_declined',
      result.payment_intent_id,
      result.id,
    );
  }
  const failure = result.status === 'requires_payment_method' ? result.last_payment_error : null;
  if (!failure) return undefined;
  return new DeclinedError(`Card declined on ${readerId}: ${failure.message} (${failure.code}). Payment intent ${result.id} is ${result.status}: confirm it again to retry.`, failure.code, result.id);
}
