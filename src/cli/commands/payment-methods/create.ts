import { type Command, Option } from 'commander';
import type { Customer } from '../../../domain/customers.js';
import { parseExpiry, PaymentMethodCreate, type PaymentMethod } from '../../../domain/payment-methods.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { checkedBody, flagOf, intArg, keyValueArg, withExamples } from '../../flags.js';

export interface CreateOptions {
  body: PaymentMethodCreate;
  /** Attach to this customer once created. */
  customer?: string | undefined;
}

interface Flags {
  type?: 'card' | 'card_present';
  card?: string;
  exp?: string;
  expMonth?: number;
  expYear?: number;
  cvc?: string;
  zip?: string;
  reader?: string;
  customer?: string;
  metadata?: Record<string, string>;
}

/** Card fields are named by the flags that carry them. */
const CARD_FLAGS: Record<string, string> = {
  'card.number': '--card',
  'card.exp_month': '--exp (or --exp-month)',
  'card.exp_year': '--exp (or --exp-year)',
  'card.cvc': '--cvc',
  'billing_details.address.zip': '--zip',
  terminal_reader_id: '--reader',
};
const flagFor = (param: string) => CARD_FLAGS[param] ?? flagOf(param);

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('create')
    .description('Create a payment method: a card, or a card presented on a terminal reader (the number and CVC are sent, never stored or shown)')
    .addOption(new Option('--type <type>', 'card, or card_present with --reader').choices(['card', 'card_present']))
    .option('--card <number>', 'Card number (test cards: pay sandbox cards); prompted, hidden, at a TTY')
    .option('--card-number <number>', 'Same as --card')
    .option('--exp <MM/YY>', 'Expiry month and year, e.g. 12/34')
    .option('--exp-month <n>', 'Expiry month, 1-12 (instead of --exp)', intArg)
    .option('--exp-year <n>', 'Expiry year, four digits (instead of --exp)', intArg)
    .option('--cvc <digits>', 'Security code (3 digits, 4 for amex); prompted, hidden, at a TTY')
    .option('--zip <code>', 'Billing postal code')
    .option('--reader <tmr_id>', 'Terminal reader for a card_present method (see pay readers list)')
    .option('--customer <cus_id>', 'Attach to this customer once created (emits payment_method.attached)')
    .option('--metadata <key=value>', 'Metadata pair (repeatable)', keyValueArg)
    .action(async (flags: Flags & { cardNumber?: string }) => {
      await run(await optionsFrom({ ...flags, card: flags.card ?? flags.cardNumber }, f), f);
    });
  withExamples(
    command,
    'pay payment-methods create --card 4242424242424242 --exp 12/34 --cvc 123 --zip 94110',
    'pay payment-methods create --card 4000000000000002 --exp 12/34 --cvc 123 --customer cus_123',
    'pay payment-methods create --type card_present --reader tmr_123',
  );
}

async function optionsFrom(flags: Flags, f: Factory): Promise<CreateOptions> {
  const type = flags.type ?? (flags.reader === undefined ? 'card' : 'card_present');
  const common = { metadata: flags.metadata, ...(flags.zip === undefined ? {} : { billing_details: { address: { zip: flags.zip } } }) };
  if (type === 'card_present') {
    if (flags.card !== undefined) throw new UsageError('--card is for type card: a card_present method is paid on its reader.');
    return { body: checkedBody(PaymentMethodCreate, { type, terminal_reader_id: flags.reader, ...common }, flagFor), customer: flags.customer };
  }
  if (flags.reader !== undefined) throw new UsageError('--reader is for type card_present.');
  const number = flags.card ?? (await f.io.askSecret('--card', 'Card number'));
  let expiry = { exp_month: flags.expMonth, exp_year: flags.expYear };
  const expText = flags.exp ?? (flags.expMonth === undefined && flags.expYear === undefined ? await f.io.ask('--exp', 'Expiry (MM/YY)') : undefined);
  if (expText !== undefined) {
    const parsed = parseExpiry(expText);
    if (!parsed) throw new UsageError(`Invalid --exp: give the expiry as MM/YY or MM/YYYY, e.g. 12/34.`);
    expiry = parsed;
  }
  const cvc = flags.cvc ?? (await f.io.askSecret('--cvc', 'CVC'));
  const card = { number, ...expiry, cvc };
  return { body: checkedBody(PaymentMethodCreate, { type, card, ...common }, flagFor), customer: flags.customer };
}

export async function run(options: CreateOptions, f: Factory): Promise<PaymentMethod> {
  const client = await f.client();
  if (options.customer !== undefined) await client.call<Customer>('customers.get', { params: { id: options.customer } });
  let pm = await client.call<PaymentMethod>('payment_methods.create', { body: options.body });
  if (options.customer !== undefined) {
    pm = await client.call<PaymentMethod>('payment_methods.attach', { params: { id: pm.id }, body: { customer_id: options.customer } });
  }
  if (f.io.human) f.io.success(`Created payment method ${pm.id}${pm.customer_id ? `, attached to ${pm.customer_id}` : ''}`);
  f.io.printObject(pm);
  return pm;
}
