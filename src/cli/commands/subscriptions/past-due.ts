import { formatAmount } from '../../../domain/money.js';
import { z } from 'zod';
import { IdOf } from '../../../domain/common.js';
import type { BatchDecision, PastDueSubscription } from '../../../operator/past-due.js';
import { defineCommand, fieldsOf, flag, type OptionsOf } from '../../command.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { checkedBody } from '../../flags.js';
import { type Column, listOf } from '../../io/io.js';
import { subscriptionFlag } from './view.js';

/** A past_due subscription with what a default batch would do with it. */
export type PastDueRow = PastDueSubscription & BatchDecision;

export const pastDueFields = fieldsOf<PastDueRow>()(
  'subscription_id', 'customer_id', 'payment_method_id', 'status', 'amount', 'currency', 'past_due_since', 'payment_intent_id', 'payment_intent_status', 'paid_directly_intent_id', 'decline_code', 'decline_message',
  'decline_type', 'failed_payment_method_id', 'payment_method_changed', 'retry', 'skip_reason',
);

const flags = {
  customer: flag.string('--customer <id>', 'Only this customer\'s (cus_…)'),
  limit: flag.int('--limit <n>', 'How many to show, from 1 (default 10)'),
  all: flag.bool('--all', 'Show every past_due subscription, page after page', { conflicts: ['limit'] }),
};
export type PastDueOptions = OptionsOf<Record<never, never>, typeof flags>;

export const pastDue = defineCommand({
  name: 'past-due',
  description: 'List past_due subscriptions, newest first, with the decline (soft or hard), whether the payment method changed since, and whether a batch retry would retry it (for support)',
  flags,
  examples: [
    'pay subscriptions past-due',
    'pay subscriptions past-due --customer cus_123',
    'pay subscriptions past-due --all --json | jq -r \'.data[] | select(.retry | not) | [.subscription_id, .skip_reason] | @tsv\'',
    'pay subscriptions retry-past-due --dry-run      # the batch: what it would charge, what it skips and why',
  ],
  help: `
A batch retry (pay subscriptions retry-past-due) retries a subscription when its payment
method changed since its last failed attempt. On an unchanged card it retries a soft
decline (insufficient_funds, card_declined, processing_error…) only with
--include-unchanged, and a hard decline (expired_card, incorrect_cvc,
card_not_supported…) never. Nor one whose failed payment intent (the latest, or an older
one) was since paid by confirming it directly: that leaves the subscription past_due, and
a retry would charge again. pay subscriptions retry sub_… is the one-off override.
`,
  fields: pastDueFields,
  run: (options, f) => run(options, f),
});

export async function run(options: PastDueOptions, f: Factory): Promise<PastDueRow[]> {
  if (options.limit !== undefined && options.limit < 1) throw new UsageError('Invalid --limit: must be 1 or more (or --all).');
  checkedBody(PastDueSelection, { customer_id: options.customer }, selectionFlag);
  const limit = options.all ? undefined : (options.limit ?? 10);
  const client = await f.client();
  const { batchDecision, findPastDue } = await import('../../../operator/past-due.js');
  const page = await f.io.spin('Finding past_due subscriptions…', () => findPastDue(client, { customer: options.customer, limit }));
  const rows: PastDueRow[] = page.data.map((item) => ({ ...item, ...batchDecision(item, { includeUnchanged: false }) }));
  f.io.printList(rows, pastDueColumns, listOf(rows, page.has_more));
  if (f.io.human && rows.length > 0) {
    const retried = rows.filter((r) => r.retry);
    // One whose failed payment was since paid directly owes nothing, though it stays past_due.
    const unpaid = rows.filter((r) => r.paid_directly_intent_id === null);
    f.io.info(`${rows.length} past_due${page.has_more ? ' shown, more with --all' : ''}: ${totalText(unpaid)} unpaid; a batch retry would retry ${retried.length} of them (${totalText(retried)}): pay subscriptions retry-past-due --dry-run`);
  } else if (!f.io.json && page.has_more) {
    // A script reading the rows learns on stderr that they are not all (--json says has_more).
    f.io.info(`${rows.length} past_due shown; there are more: --all lists every one.`);
  }
  return rows;
}

const yesNo = (value: boolean | null) => (value === null ? '' : value ? 'yes' : 'no');

/** How past_due subscriptions (support's list, a batch before it runs) are shown. */
export const pastDueColumns: Column<PastDueRow>[] = [
  { header: 'SUBSCRIPTION', value: (p) => p.subscription_id },
  { header: 'CUSTOMER', value: (p) => p.customer_id },
  { header: 'AMOUNT', value: (p) => formatAmount(p.amount, p.currency) },
  { header: 'STATUS', value: (p) => p.status },
  { header: 'PAST DUE SINCE', value: (p) => p.past_due_since },
  { header: 'DECLINE', value: (p) => p.decline_code },
  { header: 'TYPE', value: (p) => p.decline_type },
  { header: 'PM CHANGED', value: (p) => yesNo(p.payment_method_changed) },
  { header: 'BATCH', value: (p) => (p.retry ? 'retry' : `skip: ${p.skip_reason}`) },
];

/** Sums per currency, e.g. `4500 usd + 1200 eur`. */
export function totalText(rows: ReadonlyArray<{ amount: number; currency: string }>): string {
  const sums = new Map<string, number>();
  for (const row of rows) sums.set(row.currency, (sums.get(row.currency) ?? 0) + row.amount);
  return [...sums].map(([currency, sum]) => formatAmount(sum, currency)).join(' + ') || 'nothing';
}

/** Which subscriptions support staff pick: one customer's, or exactly these. */
export const PastDueSelection = z.strictObject({
  customer_id: IdOf('cus').optional(),
  only: z.array(IdOf('sub')).min(1, { error: 'name at least one subscription' }).optional(),
});
export const selectionFlag = (param: string) => (param.startsWith('only') ? '--only' : subscriptionFlag(param));
