import type { Command } from 'commander';
import type { ListPage } from '../../../domain/common.js';
import type { Charge } from '../../../domain/payment-intents.js';
import type { Factory } from '../../factory.js';
import { listOptions, withExamples } from '../../flags.js';
import { chargeColumns } from '../intents/view.js';

export interface ListOptions {
  limit: number;
  startingAfter?: string;
  paymentIntent?: string;
  customer?: string;
}

export function define(noun: Command, f: Factory): void {
  const command = listOptions(noun.command('list').description('List charges, newest first: one per payment attempt'))
    .option('--payment-intent <pi_id>', 'Only the charges of this payment intent')
    .option('--customer <cus_id>', 'Only this customer\'s')
    .action(async (flags: ListOptions) => run(flags, f));
  withExamples(command, 'pay charges list --payment-intent pi_123');
}

export async function run(options: ListOptions, f: Factory): Promise<void> {
  const client = await f.client();
  const page = await client.call<ListPage<Charge>>('charges.list', {
    query: { limit: options.limit, starting_after: options.startingAfter, payment_intent_id: options.paymentIntent, customer_id: options.customer },
  });
  f.io.printList(page.data, chargeColumns, page);
  if (page.has_more && f.io.human) f.io.info(`More: --starting-after ${page.data.at(-1)?.id}`);
}
