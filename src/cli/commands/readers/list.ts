import { type Command, Option } from 'commander';
import type { ListPage } from '../../../domain/common.js';
import { PROCESSORS, type TerminalReader } from '../../../domain/terminal-readers.js';
import type { Factory } from '../../factory.js';
import { listOptions, withExamples } from '../../flags.js';
import { readerColumns } from './view.js';

export interface ListOptions {
  limit: number;
  startingAfter?: string;
  processor?: string;
}

export function define(noun: Command, f: Factory): void {
  const command = listOptions(noun.command('list').description('List the account\'s terminal readers (to learn a terminal_reader_id)'))
    .addOption(new Option('--processor <p>', 'Only readers of this processor').choices(PROCESSORS))
    .action(async (flags: ListOptions) => run(flags, f));
  withExamples(command, 'pay readers list', 'pay readers list --processor B --json');
}

export async function run(options: ListOptions, f: Factory): Promise<void> {
  const client = await f.client();
  const page = await client.call<ListPage<TerminalReader>>('terminal_readers.list', {
    query: { limit: options.limit, starting_after: options.startingAfter, processor: options.processor },
  });
  f.io.printList(page.data, readerColumns, page);
  if (page.has_more && f.io.human) f.io.info(`More: --starting-after ${page.data.at(-1)?.id}`);
}
