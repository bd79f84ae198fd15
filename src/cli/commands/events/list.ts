import type { Command } from 'commander';
import type { ListPage } from '../../../domain/common.js';
import { type Event, EventListQuery } from '../../../domain/events.js';
import type { Factory } from '../../factory.js';
import { checkedBody, listOptions, withExamples } from '../../flags.js';
import { eventColumns } from './view.js';

export interface EventListOptions {
  query: EventListQuery;
}

const FLAG_OF: Record<string, string> = {
  type: '--type',
  'created[gte]': '--created-gte',
  'created[gt]': '--created-gt',
  'created[lte]': '--created-lte',
  'created[lt]': '--created-lt',
  starting_after: '--starting-after',
  limit: '--limit',
};

export function define(noun: Command, f: Factory): void {
  const command = listOptions(noun.command('list').description('List the account\'s events, newest first'))
    .option('--type <type>', 'Only this type, or a family: payment_intent.*')
    .option('--created-gte <when>', 'Created at or after this date or date-time')
    .option('--created-gt <when>', 'Created after this date or date-time')
    .option('--created-lte <when>', 'Created at or before this date or date-time')
    .option('--created-lt <when>', 'Created before this date or date-time')
    .action(async (flags: Record<string, string | number | undefined>) => {
      const query = checkedBody(
        EventListQuery,
        {
          limit: flags.limit,
          starting_after: flags.startingAfter,
          type: flags.type,
          'created[gte]': flags.createdGte,
          'created[gt]': flags.createdGt,
          'created[lte]': flags.createdLte,
          'created[lt]': flags.createdLt,
        },
        (param) => FLAG_OF[param] ?? `--${param}`,
      );
      await run({ query }, f);
    });
  withExamples(
    command,
    'pay events list --type payment_intent.*',
    'pay events list --created-gte 2030-01-01 --created-lt 2030-02-01 --limit 100 --json',
  );
}

export async function run(options: EventListOptions, f: Factory): Promise<void> {
  const client = await f.client();
  const page = await client.call<ListPage<Event>>('events.list', { query: options.query });
  f.io.printList(page.data, eventColumns, page);
  if (page.has_more && f.io.human) f.io.info(`More: --starting-after ${page.data.at(-1)?.id}`);
}
