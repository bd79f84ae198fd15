import type { Command } from 'commander';
import type { ListPage } from '../../../domain/common.js';
import { type Subscription, SubscriptionListQuery } from '../../../domain/subscriptions.js';
import type { Factory } from '../../factory.js';
import { checkedBody, listOptions, withExamples } from '../../flags.js';
import { subscriptionColumns, subscriptionFlag } from './view.js';

export interface ListOptions {
  limit: number;
  startingAfter?: string;
  status?: string;
  customer?: string;
}

export function define(noun: Command, f: Factory): void {
  const command = listOptions(noun.command('list').description('List subscriptions, newest first'))
    .option('--status <status>', 'Only this status: pending, active, past_due, paused or canceled')
    .option('--customer <id>', 'Only this customer\'s (cus_…)')
    .action(async (flags: ListOptions) => run(flags, f));
  withExamples(command, 'pay subscriptions list --status past_due', 'pay subscriptions list --customer cus_123 --json');
}

export async function run(options: ListOptions, f: Factory): Promise<void> {
  const query = checkedBody(
    SubscriptionListQuery,
    { limit: options.limit, starting_after: options.startingAfter, status: options.status, customer_id: options.customer },
    subscriptionFlag,
  );
  const client = await f.client();
  const page = await client.call<ListPage<Subscription>>('subscriptions.list', { query });
  f.io.printList(page.data, subscriptionColumns, page);
  if (page.has_more && f.io.human) f.io.info(`More: --starting-after ${page.data.at(-1)?.id}`);
}
