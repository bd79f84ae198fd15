import type { Command } from 'commander';
import type { ListPage } from '../../../domain/common.js';
import type { Customer } from '../../../domain/customers.js';
import type { Factory } from '../../factory.js';
import { listOptions, withExamples } from '../../flags.js';
import { customerColumns } from './view.js';

export interface ListOptions {
  limit: number;
  startingAfter?: string;
  email?: string;
}

export function define(noun: Command, f: Factory): void {
  const command = listOptions(noun.command('list').description('List customers, newest first'))
    .option('--email <email>', 'Only customers with this email')
    .action(async (flags: ListOptions) => run(flags, f));
  withExamples(command, 'pay customers list', 'pay customers list --limit 50 --json');
}

export async function run(options: ListOptions, f: Factory): Promise<void> {
  const client = await f.client();
  const page = await client.call<ListPage<Customer>>('customers.list', {
    query: { limit: options.limit, starting_after: options.startingAfter, email: options.email },
  });
  f.io.printList(page.data, customerColumns, page);
  if (page.has_more && f.io.human) f.io.info(`More: --starting-after ${page.data.at(-1)?.id}`);
}
