import { PRESENT_OUTCOMES, READ_METHODS, ReaderPresent } from '../../../domain/terminal-readers.js';
import type { PaymentIntent } from '../../../domain/payment-intents.js';
import { readerDecline } from '../../../domain/reader-declines.js';
import type { Refund } from '../../../domain/refunds.js';
import { arg, bodyFrom, defineCommand, flag } from '../../command.js';
import { DeclinedError, UsageError } from '../../errors.js';
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
  args: { id: arg.id('terminal_reader', 'Terminal reader id (tmr_…)') },
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
    // A test helper: never sent to a service elsewhere, as the clock and reset are not.
    const { maybeSandbox } = await import('../../../config/resolve.js');
    const profile = await f.profile();
    if (!maybeSandbox(profile)) throw new UsageError(`Profile '${profile.name}' (${profile.base_url}) is not a sandbox: presenting a card on a reader is for the sandbox's readers only.`);
    const client = await f.client();
    const result = await client.call<PaymentIntent | Refund>('test_helpers.reader_present', { params: { id: options.id }, body });
    // A decline is shown, then exits 6 as any decline.
    const declined = readerDecline(result, options.id);
    if (f.io.human && !declined) f.io.success(`Card presented on ${options.id}: ${result.object} ${result.id} is ${result.status}`);
    f.io.printObject(result);
    if (declined) throw new DeclinedError(declined.message, declined.code, declined.payment_intent_id, declined.refund_id);
  },
});
