import { type Command, Option } from 'commander';
import type { ListPage } from '../../../domain/common.js';
import { PAYMENT_INTENT_STATUSES, type PaymentIntent } from '../../../domain/payment-intents.js';
import type { Factory } from '../../factory.js';
import { listOptions, withExamples } from '../../flags.js';
import { intentColumns } from './view.js';

export interface ListOptions {
  limit: number;
  startingAfter?: string;
  subscription?: string;
  customer?: string;
  status?: string;
}

export function define(noun: Command, f: Factory): void {
  const command = listOptions(noun.command('list').description('List payment intents, newest first'))
    .option('--subscription <sub_id>', 'Only the payment attempts of this subscription')
    .option('--customer <cus_id>', 'Only this customer\'s')
    .addOption(new Option('--status <status>', 'Only intents in this status').choices(PAYMENT_INTENT_STATUSES))
    .action(async (flags: ListOptions) => run(flags, f));
  withExamples(command, 'pay intents list --status succeeded', 'pay intents list --subscription sub_123 --json');
}

export async function run(options: ListOptions, f: Factory): Promise<void> {
  const client = await f.client();
  const page = await client.call<ListPage<PaymentIntent>>('payment_intents.list', {
    query: { limit: options.limit, starting_after: options.startingAfter, subscription_id: options.subscription, customer_id: options.customer, status: options.status },
  });
  f.io.printList(page.data, intentColumns, page);
  if (page.has_more && f.io.human) f.io.info(`More: --starting-after ${page.data.at(-1)?.id}`);
}
