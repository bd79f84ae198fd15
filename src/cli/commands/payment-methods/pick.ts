import type { ListPage } from '../../../domain/common.js';
import { PAYMENT_METHOD_TYPES, type PaymentMethod, type PaymentMethodType } from '../../../domain/payment-methods.js';
import type { TerminalReader } from '../../../domain/terminal-readers.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';

/**
 * At a TTY: choose one of a customer's payment methods (or the account's, without a
 * customer) for `--payment-method`, of the `types` the payment takes (default: any).
 */
export async function pickPaymentMethod(f: Factory, options: { customer?: string | undefined; types?: readonly PaymentMethodType[]; purpose: string }): Promise<string> {
  const { customer, types = PAYMENT_METHOD_TYPES } = options;
  f.io.requirePrompt('--payment-method', options.purpose);
  // A card_present method is used on its reader and never attached to a customer: the account's are offered.
  const presentOnly = !types.includes('card');
  const client = await f.client();
  const page = await client.call<ListPage<PaymentMethod>>('payment_methods.list', {
    query: { limit: 100, customer_id: presentOnly ? undefined : customer, type: types.length === 1 ? types[0] : undefined },
  });
  const methods = page.data.filter((pm) => types.includes(pm.type));
  if (methods.length === 0) {
    const whose = customer && !presentOnly ? `customer ${customer} has` : 'there are';
    const what = types.length === PAYMENT_METHOD_TYPES.length ? 'payment methods' : presentOnly ? 'card_present payment methods' : `card${customer ? ' attached' : 's'}`;
    const create = presentOnly ? 'pay payment-methods create --type card_present --reader tmr_…' : `pay payment-methods create --card 4242424242424242 --exp 12/34 --cvc 123${customer ? ` --customer ${customer}` : ''}`;
    throw new UsageError(`Missing --payment-method: ${whose} no ${what} yet. Create one with: ${create}`);
  }
  return f.io.choose('--payment-method', 'Payment method', methods.map((pm) => ({ name: label(pm), value: pm.id })));
}

function label(pm: PaymentMethod): string {
  if (!pm.card) return `${pm.id}  card_present on ${pm.terminal_reader_id}`;
  return `${pm.id}  ${pm.card.brand} •••• ${pm.card.last4}  exp ${String(pm.card.exp_month).padStart(2, '0')}/${pm.card.exp_year}`;
}

/**
 * At a TTY: choose one of the account's terminal readers for `--reader` (spec section 4,
 * rule 6: the list of readers is where a terminal_reader_id is learnt).
 */
export async function pickReader(f: Factory, purpose: string): Promise<string> {
  f.io.requirePrompt('--reader', purpose);
  const client = await f.client();
  const page = await client.call<ListPage<TerminalReader>>('terminal_readers.list', { query: { limit: 100 } });
  if (page.data.length === 0) {
    throw new UsageError('Missing --reader: the account has no terminal readers yet. Connect one with: pay terminal simulate --processor A --model a-countertop');
  }
  return f.io.choose('--reader', 'Terminal reader', page.data.map((r) => ({ name: readerLabel(r), value: r.id })));
}

const readerLabel = (r: TerminalReader) => `${r.id}  ${r.status.padEnd(7)}  ${r.processor} ${r.model.padEnd(12)}  ${r.label}`;
