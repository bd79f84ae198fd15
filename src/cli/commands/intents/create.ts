import { CAPTURE_METHODS, type PaymentIntent, PaymentIntentCreate, PaymentIntentTypes } from '../../../domain/payment-intents.js';
import { bodyFrom, defineCommand, flag } from '../../command.js';
import { moneyFlags, moneyFrom } from '../../prompts.js';
import { pickPaymentMethod } from '../payment-methods/pick.js';
import { intentFields, showIntent } from './view.js';

const flags = {
  ...moneyFlags,
  paymentMethodTypes: flag.list('--payment-method-types <types>', 'card and/or card_present, comma-separated or repeated (default: card)', { field: 'payment_method_types' }),
  confirm: flag.bool('--confirm', 'Confirm at once with --payment-method', { optional: true, field: 'confirm' }),
  captureMethod: flag.choice('--capture-method <method>', 'automatic (default), or manual to capture later with pay intents capture', CAPTURE_METHODS, { field: 'capture_method' }),
  paymentMethod: flag.string('--payment-method <pm_id>', 'Payment method to pay with (picked from a list at a TTY when --confirm is given without it)', { field: 'payment_method_id' }),
  customer: flag.string('--customer <cus_id>', 'Customer paying', { field: 'customer_id' }),
  description: flag.string('--description <text>', 'Description', { field: 'description' }),
  metadata: flag.keyValue('--metadata <key=value>', 'Metadata pair (repeatable)', { field: 'metadata' }),
};

export const create = defineCommand({
  name: 'create',
  description: 'Create a payment intent once the total is known; --confirm pays it at once. Missing values are prompted for at a TTY',
  flags,
  examples: [
    'pay intents create --amount 1099 --currency usd',
    'pay intents create --amount 1099 --currency usd --confirm --payment-method pm_123',
    'pay intents create --amount 5000 --currency usd --capture-method manual --confirm --payment-method pm_123',
    'pay intents create --amount 1500 --currency usd --payment-method-types card_present --confirm --payment-method pm_456',
  ],
  fields: intentFields,
  async run(options, f) {
    const money = await moneyFrom(options, f.io);
    // Checked first: the methods offered to confirm with are of these types.
    const { payment_method_types: types } = bodyFrom(PaymentIntentTypes, flags, { paymentMethodTypes: options.paymentMethodTypes ?? ['card'] });
    const paymentMethod =
      options.paymentMethod ?? (options.confirm ? await pickPaymentMethod(f, { customer: options.customer, types, purpose: 'a payment method to confirm with' }) : undefined);
    const body = bodyFrom(PaymentIntentCreate, flags, { ...options, ...money, paymentMethodTypes: types, paymentMethod });
    const client = await f.client();
    const intent = await client.call<PaymentIntent>('payment_intents.create', { body });
    showIntent(f, intent, 'Created');
    return intent;
  },
});
