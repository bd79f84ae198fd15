import { type Command, Option } from 'commander';
import { CAPTURE_METHODS, type PaymentIntent, PaymentIntentCreate } from '../../../domain/payment-intents.js';
import { pickPaymentMethod } from '../payment-methods/pick.js';
import type { Factory } from '../../factory.js';
import { moneyFrom } from '../../prompts.js';
import { checkedBody, keyValueArg, listArg, moneyOptions, withExamples } from '../../flags.js';
import { showIntent } from './view.js';

export interface CreateOptions {
  body: PaymentIntentCreate;
}

interface Flags {
  amount?: number;
  currency?: string;
  paymentMethodTypes?: string[];
  confirm?: boolean;
  captureMethod?: string;
  paymentMethod?: string;
  customer?: string;
  description?: string;
  metadata?: Record<string, string>;
}

export function define(noun: Command, f: Factory): void {
  const command = moneyOptions(noun.command('create'))
    .description('Create a payment intent once the total is known; --confirm pays it at once. Missing values are prompted for at a TTY')
    .option('--payment-method-types <types>', 'card and/or card_present, comma-separated or repeated (default: card)', listArg)
    .option('--confirm', 'Confirm at once with --payment-method')
    .addOption(new Option('--capture-method <method>', 'automatic (default), or manual to capture later with pay intents capture').choices(CAPTURE_METHODS))
    .option('--payment-method <pm_id>', 'Payment method to pay with (picked from a list at a TTY when --confirm is given without it)')
    .option('--customer <cus_id>', 'Customer paying')
    .option('--description <text>', 'Description')
    .option('--metadata <key=value>', 'Metadata pair (repeatable)', keyValueArg)
    .action(async (flags: Flags) => {
      await run(await optionsFrom(flags, f), f);
    });
  withExamples(
    command,
    'pay intents create --amount 1099 --currency usd',
    'pay intents create --amount 1099 --currency usd --confirm --payment-method pm_123',
    'pay intents create --amount 5000 --currency usd --capture-method manual --confirm --payment-method pm_123',
    'pay intents create --amount 1500 --currency usd --payment-method-types card_present --confirm --payment-method pm_456',
  );
}

async function optionsFrom(flags: Flags, f: Factory): Promise<CreateOptions> {
  const { amount, currency } = await moneyFrom(flags, f.io);
  const paymentMethod = flags.paymentMethod ?? (flags.confirm ? await pickPaymentMethod(f, { customer: flags.customer, purpose: 'a payment method to confirm with' }) : undefined);
  const body = checkedBody(PaymentIntentCreate, {
    amount,
    currency,
    payment_method_types: flags.paymentMethodTypes ?? ['card'],
    confirm: flags.confirm,
    capture_method: flags.captureMethod,
    payment_method_id: paymentMethod,
    customer_id: flags.customer,
    description: flags.description,
    metadata: flags.metadata,
  });
  return { body };
}

export async function run(options: CreateOptions, f: Factory): Promise<PaymentIntent> {
  const client = await f.client();
  const intent = await client.call<PaymentIntent>('payment_intents.create', { body: options.body });
  showIntent(f, intent, 'Created');
  return intent;
}
