import { CANCELLATION_REASONS, type PaymentIntent, PAYMENT_INTENT_STATUSES } from '../../../domain/payment-intents.js';
import { flag, verbs } from '../../command.js';
import { getCommand, listCommand, stateCommand } from '../../verbs.js';
import { create } from './create.js';
import { intentColumns, intentFields, showIntent } from './view.js';

const ID = 'Payment intent id (pi_…)';
/** The intent after a change, with a word on what happened. */
const shown = (verb: string) => (f: Parameters<typeof showIntent>[0], intent: PaymentIntent) => showIntent(f, intent, verb);

export const register = verbs(
  create,
  stateCommand('confirm', 'payment_intents.confirm', {
    description: 'Confirm a payment intent: a card is charged at once (exit 6 when declined); a card_present intent goes to its reader',
    id: ID,
    flags: { paymentMethod: flag.string('--payment-method <pm_id>', 'Payment method to pay with (required unless the intent has one)', { field: 'payment_method_id' }) },
    body: () => import('../../../domain/payment-intents.js').then((m) => m.PaymentIntentConfirm),
    show: shown('Confirmed'),
    fields: intentFields,
    examples: ['pay intents confirm pi_123 --payment-method pm_123', 'pay intents confirm pi_123 --json'],
  }),
  getCommand<PaymentIntent>('payment_intents.get', { description: 'Show a payment intent', id: ID, fields: intentFields, examples: ['pay intents get pi_123', 'pay intents get pi_123 --json | jq .status'] }),
  listCommand<PaymentIntent>('payment_intents.list', {
    description: 'List payment intents, newest first',
    columns: intentColumns,
    fields: intentFields,
    query: () => import('../../../domain/payment-intents.js').then((m) => m.PaymentIntentListQuery),
    filters: {
      subscription: flag.string('--subscription <sub_id>', 'Only the payment attempts of this subscription, every one unless --limit is given', { field: 'subscription_id' }),
      customer: flag.string('--customer <cus_id>', 'Only this customer\'s', { field: 'customer_id' }),
      status: flag.choice('--status <status>', 'Only intents in this status', PAYMENT_INTENT_STATUSES, { field: 'status' }),
    },
    examples: ['pay intents list --status succeeded', 'pay intents list --subscription sub_123 --json'],
  }),
  stateCommand('update', 'payment_intents.update', {
    description: 'Change a payment intent\'s amount (or description, metadata); only before it is confirmed',
    id: ID,
    flags: {
      amount: flag.int('--amount <n>', 'New amount in the currency\'s minor unit', { field: 'amount' }),
      description: flag.string('--description <text>', 'Description', { field: 'description' }),
      metadata: flag.keyValue('--metadata <key=value>', 'Metadata pair, merged into the existing ones; key= removes a key (repeatable)', { field: 'metadata' }),
    },
    body: () => import('../../../domain/payment-intents.js').then((m) => m.PaymentIntentUpdate),
    show: shown('Updated'),
    fields: intentFields,
    examples: ['pay intents update pi_123 --amount 2499'],
  }),
  stateCommand('capture', 'payment_intents.capture', {
    description: 'Capture an authorized payment intent (capture_method manual), once, up to the authorized amount',
    id: ID,
    flags: { amountToCapture: flag.int('--amount-to-capture <n>', 'Amount to capture (default: all that was authorized)', { field: 'amount_to_capture' }) },
    body: () => import('../../../domain/payment-intents.js').then((m) => m.PaymentIntentCapture),
    show: shown('Captured'),
    fields: intentFields,
    examples: ['pay intents capture pi_123', 'pay intents capture pi_123 --amount-to-capture 800'],
  }),
  stateCommand('cancel', 'payment_intents.cancel', {
    description: 'Cancel a payment intent before it is processing or succeeded (held funds are released); irreversible',
    id: ID,
    flags: { cancellationReason: flag.choice('--cancellation-reason <reason>', 'Why', CANCELLATION_REASONS, { field: 'cancellation_reason' }) },
    body: () => import('../../../domain/payment-intents.js').then((m) => m.PaymentIntentCancel),
    show: shown('Canceled'),
    fields: intentFields,
    destructive: { what: 'canceling a payment intent is irreversible', question: (id) => `Cancel payment intent ${id}? It cannot be used again.` },
    examples: ['pay intents cancel pi_123', 'pay intents cancel pi_123 --cancellation-reason requested_by_customer --yes'],
  }),
);
