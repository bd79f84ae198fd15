import type { Customer } from '../../../domain/customers.js';
import { PAYMENT_METHOD_TYPES, parseExpiry, type PaymentMethod, PaymentMethodAttach, PaymentMethodCreate } from '../../../domain/payment-methods.js';
import { bodyFrom, defineCommand, flag, type OptionsOf } from '../../command.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { flags as attachFlags } from './attach.js';
import { pickReader } from './pick.js';
import { paymentMethodFields } from './view.js';

const flags = {
  type: flag.choice('--type <type>', 'card, or card_present with --reader', PAYMENT_METHOD_TYPES, { field: 'type' }),
  card: flag.string('--card <number>', 'Card number (test cards: pay sandbox cards); prompted, hidden, at a TTY', { field: 'card.number', conflicts: ['cardNumber'] }),
  cardNumber: flag.string('--card-number <number>', 'Same as --card', { field: 'card.number' }),
  exp: flag.string('--exp <MM/YY>', 'Expiry month and year, e.g. 12/34', { conflicts: ['expMonth', 'expYear'] }),
  expMonth: flag.int('--exp-month <n>', 'Expiry month, 1-12 (instead of --exp)', { field: 'card.exp_month' }),
  expYear: flag.int('--exp-year <n>', 'Expiry year, four digits (instead of --exp)', { field: 'card.exp_year' }),
  cvc: flag.string('--cvc <digits>', 'Security code (3 digits; 3 or 4 for amex); prompted, hidden, at a TTY', { field: 'card.cvc' }),
  zip: flag.string('--zip <code>', 'Billing postal code', { field: 'billing_details.address.zip' }),
  reader: flag.string('--reader <tmr_id>', 'Terminal reader for a card_present method (see pay readers list; picked from a list at a TTY)', { field: 'terminal_reader_id' }),
  customer: flag.string('--customer <cus_id>', 'Attach to this customer once created (emits payment_method.attached)'),
  metadata: flag.keyValue('--metadata <key=value>', 'Metadata pair (repeatable)', { field: 'metadata' }),
};

/** Expiry errors name both ways of giving it. */
const EXPIRY_FLAGS = { 'card.exp_month': '--exp (or --exp-month)', 'card.exp_year': '--exp (or --exp-year)' };

export const create = defineCommand({
  name: 'create',
  description: 'Create a payment method: a card, or a card presented on a terminal reader (the number and CVC are sent, never stored or shown)',
  flags,
  examples: [
    'pay payment-methods create --card 4242424242424242 --exp 12/34 --cvc 123 --zip 94110',
    'pay payment-methods create --card 4000000000000002 --exp 12/34 --cvc 123 --customer cus_123',
    'pay payment-methods create --type card_present --reader tmr_123',
  ],
  fields: paymentMethodFields,
  async run(options, f) {
    // Checked before any request (and any prompt): the method must not be created when it cannot be attached.
    const attachBody = options.customer === undefined ? undefined : bodyFrom(PaymentMethodAttach, attachFlags, { customer: options.customer });
    const body = await bodyOf(options, f);
    const client = await f.client();
    if (attachBody !== undefined) await client.call<Customer>('customers.get', { params: { id: attachBody.customer_id } });
    let pm = await client.call<PaymentMethod>('payment_methods.create', { body });
    if (attachBody !== undefined) pm = await client.call<PaymentMethod>('payment_methods.attach', { params: { id: pm.id }, body: attachBody });
    if (f.io.human) f.io.success(`Created payment method ${pm.id}${pm.customer_id ? `, attached to ${pm.customer_id}` : ''}`);
    f.io.printObject(pm);
    return pm;
  },
});

/** The body of a card (asking at a TTY for what is missing) or of a card on a reader. */
async function bodyOf(options: OptionsOf<Record<never, never>, typeof flags>, f: Factory): Promise<PaymentMethodCreate> {
  const type = options.type ?? (options.reader === undefined ? 'card' : 'card_present');
  if (type === 'card_present') {
    if (options.card !== undefined || options.cardNumber !== undefined) {
      throw new UsageError(`${options.card === undefined ? '--card-number' : '--card'} is for type card: a card_present method is paid on its reader.`);
    }
    if (options.customer !== undefined) throw new UsageError('--customer is for type card: a card_present method is used once on its reader and cannot be attached to a customer.');
    const reader = options.reader ?? (await pickReader(f, 'the terminal reader that takes the card (tmr_…, see pay readers list)'));
    return bodyFrom(PaymentMethodCreate, flags, { type, reader, zip: options.zip, metadata: options.metadata });
  }
  if (options.reader !== undefined) throw new UsageError('--reader is for type card_present.');
  const card = options.card ?? (options.cardNumber === undefined ? await f.io.askSecret('--card', 'Card number') : undefined);
  let expiry = { expMonth: options.expMonth, expYear: options.expYear };
  const expText = options.exp ?? (options.expMonth === undefined && options.expYear === undefined ? await f.io.ask('--exp', 'Expiry (MM/YY)') : undefined);
  if (expText !== undefined) {
    const parsed = parseExpiry(expText);
    if (!parsed) throw new UsageError(`Invalid --exp: give the expiry as MM/YY or MM/YYYY, e.g. 12/34.`);
    expiry = { expMonth: parsed.exp_month, expYear: parsed.exp_year };
  }
  const cvc = options.cvc ?? (await f.io.askSecret('--cvc', 'CVC'));
  return bodyFrom(PaymentMethodCreate, flags, { ...options, type, card, ...expiry, cvc }, {}, EXPIRY_FLAGS);
}
