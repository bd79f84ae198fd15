import { type Command, Option } from 'commander';
import type { PastDueSubscription } from '../../../operator/past-due.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { checkedBody, intArg, withExamples } from '../../flags.js';
import { PastDueSelection, pastDueColumns, selectionFlag, totalText } from './view.js';

export interface PastDueOptions {
  customer?: string | undefined;
  /** undefined: every one. */
  limit?: number | undefined;
}

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('past-due')
    .description('List past_due subscriptions, newest first, with why the last payment failed and since when (for support)')
    .option('--customer <id>', 'Only this customer\'s (cus_…)')
    .addOption(new Option('--limit <n>', 'How many to show, from 1 (default 10)').argParser(intArg).conflicts('all'))
    .option('--all', 'Show every past_due subscription, page after page')
    .action(async (flags: { customer?: string; limit?: number; all?: boolean }) => {
      await run({ customer: flags.customer, limit: flags.all ? undefined : (flags.limit ?? 10) }, f);
    });
  withExamples(
    command,
    'pay subscriptions past-due',
    'pay subscriptions past-due --customer cus_123',
    'pay subscriptions past-due --all --json | jq -r \'.data[] | [.subscription_id, .failure_code] | @tsv\'',
    'pay subscriptions retry-past-due --dry-run      # what a batch retry would charge',
  );
}

export async function run(options: PastDueOptions, f: Factory): Promise<PastDueSubscription[]> {
  if (options.limit !== undefined && options.limit < 1) throw new UsageError('Invalid --limit: must be 1 or more (or --all).');
  checkedBody(PastDueSelection, { customer_id: options.customer }, selectionFlag);
  const client = await f.client();
  const { findPastDue } = await import('../../../operator/past-due.js');
  const page = await f.io.spin('Finding past_due subscriptions…', () => findPastDue(client, { customer: options.customer, limit: options.limit }));
  f.io.printList(page.data, pastDueColumns, { object: 'list', data: page.data, has_more: page.has_more });
  if (f.io.human && page.data.length > 0) {
    f.io.info(`${page.data.length} past_due${page.has_more ? ' shown, more with --all' : ''}: ${totalText(page.data)} unpaid. Retry them with: pay subscriptions retry-past-due`);
  }
  return page.data;
}
