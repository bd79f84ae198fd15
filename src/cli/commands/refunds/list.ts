import { type Command, Option } from 'commander';
import type { ListPage } from '../../../domain/common.js';
import type { Refund } from '../../../domain/refunds.js';
import type { Factory } from '../../factory.js';
import type { Column } from '../../io/io.js';
import { listOptions, withExamples } from '../../flags.js';

export interface ListOptions {
  limit: number;
  startingAfter?: string;
  paymentIntent?: string;
  status?: string;
}

const columns: Column<Refund>[] = [
  { header: 'ID', value: (r) => r.id },
  { header: 'STATUS', value: (r) => r.status },
  { header: 'AMOUNT', value: (r) => r.amount },
  { header: 'CURRENCY', value: (r) => r.currency },
  { header: 'INTENT', value: (r) => r.payment_intent_id },
  { header: 'REASON', value: (r) => r.reason },
  { header: 'CREATED', value: (r) => r.created },
];

export function define(noun: Command, f: Factory): void {
  const command = listOptions(noun.command('list').description('List refunds, newest first'))
    .option('--payment-intent <pi_id>', 'Only the refunds of this payment intent')
    .addOption(new Option('--status <status>', 'Only refunds in this status').choices(['pending', 'succeeded', 'failed']))
    .action(async (flags: ListOptions) => run(flags, f));
  withExamples(command, 'pay refunds list --payment-intent pi_123');
}

export async function run(options: ListOptions, f: Factory): Promise<void> {
  const client = await f.client();
  const page = await client.call<ListPage<Refund>>('refunds.list', {
    query: { limit: options.limit, starting_after: options.startingAfter, payment_intent_id: options.paymentIntent, status: options.status },
  });
  f.io.printList(page.data, columns, page);
  if (page.has_more && f.io.human) f.io.info(`More: --starting-after ${page.data.at(-1)?.id}`);
}
