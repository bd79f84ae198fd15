import { z } from 'zod';
import type { Client } from '../../../client/client.js';
import type { ListPage } from '../../../domain/common.js';
import type { Customer } from '../../../domain/customers.js';
import { INTERVAL_UNITS } from '../../../domain/schedule.js';
import { formatAmount } from '../../../domain/money.js';
import { firstPaymentDate, scheduledDates, type Subscription, SubscriptionCreate, SubscriptionFields } from '../../../domain/subscriptions.js';
import type { TestClockObject } from '../../../domain/test-helpers.js';
import { defineCommand, fieldsFrom, flag, flagNamer } from '../../command.js';
import { CancelError, UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { checkedBody } from '../../flags.js';
import { answerCheck, wholeNumber } from '../../prompts.js';
import { pickPaymentMethod } from '../payment-methods/pick.js';
import { intervalText, subscriptionFields } from './view.js';

type Fields = { [K in keyof SubscriptionCreate]?: unknown };

const flags = {
  customer: flag.string('--customer <id>', 'Customer to charge (cus_…); fixed for the subscription\'s life', { field: 'customer_id', prompted: true }),
  paymentMethod: flag.string('--payment-method <id>', 'Card payment method attached to that customer (pm_…)', { field: 'payment_method_id', prompted: true }),
  price: flag.int('--price <amount>', 'Amount charged each cycle, in minor units (1500 = 15.00)', { field: 'price', prompted: true }),
  currency: flag.string('--currency <code>', 'Three-letter currency code (default usd)', { field: 'currency' }),
  billingCycleAnchor: flag.string('--billing-cycle-anchor <date>', 'Date of the first payment, YYYY-MM-DD (today or later); fixes the schedule', { field: 'billing_cycle_anchor', prompted: true }),
  intervalUnit: flag.string('--interval-unit <unit>', 'week, month or year', { field: 'interval_unit', prompted: true }),
  intervalCount: flag.int('--interval-count <n>', 'Number of interval units between payments', { field: 'interval_count', prompted: true }),
  cancelAt: flag.string('--cancel-at <date>', 'Cancel on this date (YYYY-MM-DD), after the anchor; the anchor\'s next day makes a single future payment', { field: 'cancel_at' }),
  platformFeeAmount: flag.int('--platform-fee-amount <amount>', 'Platform fee in minor units, at most the price', { field: 'platform_fee_amount' }),
  metadata: flag.keyValue('--metadata <key=value>', 'Metadata pair (repeatable)', { field: 'metadata' }),
  yes: flag.bool('-y, --yes', 'Create without showing the schedule and asking for confirmation'),
};
const flagFor = flagNamer(flags);

export const create = defineCommand({
  name: 'create',
  description: 'Create a subscription: a stored card charged on a schedule from billing_cycle_anchor (asks for what is missing at a TTY)',
  flags,
  examples: [
    'pay subscriptions create            # at a TTY: pick the customer and card, see the first dates, confirm',
    'pay subscriptions create --customer cus_123 --payment-method pm_456 --price 1500 --billing-cycle-anchor 2030-01-31 --interval-unit month --interval-count 1 --yes',
    'pay subscriptions create --customer cus_123 --payment-method pm_456 --price 5000 --billing-cycle-anchor 2030-03-01 --interval-unit month --interval-count 1 --cancel-at 2030-03-02   # one future payment',
  ],
  fields: subscriptionFields,
  async run(options, f) {
    const given: Fields = fieldsFrom(flags, options);
    // Bad values are usage errors before any prompt or request.
    checkedBody(SubscriptionFields.partial(), given, flagFor);
    const fields = f.io.canPrompt ? await askMissing(given, f) : given;
    const body = checkedBody(SubscriptionCreate, fields, flagFor);
    // askMissing checked it at a TTY; a script's flag gets the same usage error, not the service's 400.
    if (!f.io.canPrompt) checkAnchor(await anchorRule(f), body.billing_cycle_anchor);
    if (f.io.canPrompt && !options.yes) {
      f.io.info(`${formatAmount(body.price, body.currency ?? 'usd')} ${intervalText(body)} from ${body.billing_cycle_anchor}${body.cancel_at ? `, until it cancels on ${body.cancel_at}` : ''}. First due dates:`);
      // A preview, not data: on stderr, so --json output stays the created subscription alone.
      scheduledDates({ ...body, cancel_at: body.cancel_at ?? null }, 5).forEach((date, i) => f.io.info(`  ${i + 1}  ${date}`));
      if (!(await f.io.confirm('Create this subscription?', true))) throw new CancelError('No subscription created.');
    }
    const client = await f.client();
    const subscription = await client.call<Subscription>('subscriptions.create', { body });
    if (f.io.human) f.io.success(`Created subscription ${subscription.id}: ${createdSummary(subscription)}`);
    // An anchor of today charges at once: a failed first payment is said even with --json.
    if (subscription.status === 'past_due') f.io.warn(`Its first payment (${subscription.latest_payment_intent_id}) failed: update its payment method, then pay subscriptions retry ${subscription.id}.`);
    f.io.printObject(subscription);
    return subscription;
  },
});

/** Where a new subscription stands: waiting for its anchor, or (an anchor of today) its first payment made. */
function createdSummary(subscription: Subscription): string {
  if (subscription.status === 'pending') return `pending, first payment ${subscription.next_payment_at}`;
  if (subscription.status === 'active') return `active, first payment made (${subscription.latest_payment_intent_id}), next ${subscription.next_payment_at}`;
  return subscription.status;
}

/**
 * Asks for what is missing, checking each answer as it is given by the service's own
 * rules (the first payment date against the service's today), so a bad one is asked
 * again rather than failing the request after every answer.
 */
async function askMissing(given: Fields, f: Factory): Promise<Fields> {
  const fields = { ...given };
  const client = await f.client();
  const firstPayment = await anchorRule(f);
  if (fields.billing_cycle_anchor !== undefined) checkAnchor(firstPayment, fields.billing_cycle_anchor);
  fields.customer_id ??= await chooseCustomer(client, f);
  fields.payment_method_id ??= await pickPaymentMethod(f, { customer: String(fields.customer_id), types: ['card'], purpose: 'the payment method' });
  const rule = SubscriptionFields.shape;
  if (fields.price === undefined) {
    fields.price = Number(await f.io.ask('--price', 'Price each cycle, in minor units (1500 = 15.00)', { validate: answerCheck(rule.price, wholeNumber) }));
  }
  fields.billing_cycle_anchor ??= (await f.io.ask('--billing-cycle-anchor', 'Date of the first payment (YYYY-MM-DD)', { validate: answerCheck(firstPayment) })).trim();
  fields.interval_unit ??= await f.io.choose('--interval-unit', 'Interval unit', INTERVAL_UNITS.map((unit) => ({ name: unit, value: unit })));
  if (fields.interval_count === undefined) {
    fields.interval_count = Number(await f.io.ask('--interval-count', `Number of ${String(fields.interval_unit)}s between payments`, { default: '1', validate: answerCheck(rule.interval_count, wholeNumber) }));
  }
  return fields;
}

/** The service's rule for the first payment date, against its today: the sandbox clock's date, else the real one (UTC, as the schedule is). */
async function anchorRule(f: Factory) {
  if (!(await f.profile()).sandbox) return firstPaymentDate(new Date().toISOString().slice(0, 10));
  const client = await f.client();
  return firstPaymentDate((await client.call<TestClockObject>('test_helpers.clock')).now.slice(0, 10));
}

const checkAnchor = (rule: ReturnType<typeof firstPaymentDate>, anchor: unknown) =>
  checkedBody(z.object({ billing_cycle_anchor: rule }), { billing_cycle_anchor: anchor }, flagFor);

async function chooseCustomer(client: Client, f: Factory): Promise<string> {
  f.io.requirePrompt('--customer', 'the customer');
  const page = await client.call<ListPage<Customer>>('customers.list', { query: { limit: 100 } });
  if (page.data.length === 0) throw new UsageError('No customers yet: create one first with pay customers create.');
  const name = (c: Customer) => [c.email, [c.first_name, c.last_name].filter(Boolean).join(' ')].filter(Boolean).join('  ');
  return f.io.choose('--customer', 'Customer', page.data.map((c) => ({ name: `${c.id}  ${name(c)}`.trimEnd(), value: c.id })));
}

