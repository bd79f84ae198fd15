import { type Command, Option } from 'commander';
import type { ListPage } from '../../../domain/common.js';
import type { PaymentMethod } from '../../../domain/payment-methods.js';
import type { Factory } from '../../factory.js';
import { listOptions, withExamples } from '../../flags.js';
import { paymentMethodColumns } from './view.js';

export interface ListOptions {
  limit: number;
  startingAfter?: string;
  customer?: string;
  type?: string;
}

export function define(noun: Command, f: Factory): void {
  const command = listOptions(noun.command('list').description('List payment methods, newest first'))
    .option('--customer <cus_id>', 'Only those attached to this customer')
    .addOption(new Option('--type <type>', 'Only this type').choices(['card', 'card_present']))
    .action(async (flags: ListOptions) => run(flags, f));
  withExamples(command, 'pay payment-methods list --customer cus_123', 'pay payment-methods list --type card --json');
}

export async function run(options: ListOptions, f: Factory): Promise<void> {
  const client = await f.client();
  const page = await client.call<ListPage<PaymentMethod>>('payment_methods.list', {
    query: { limit: options.limit, starting_after: options.startingAfter, customer_id: options.customer, type: options.type },
  });
  f.io.printList(page.data, paymentMethodColumns, page);
  if (page.has_more && f.io.human) f.io.info(`More: --starting-after ${page.data.at(-1)?.id}`);
}
