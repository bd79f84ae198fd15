import type { Command } from 'commander';
import type { ListPage } from '../../../domain/common.js';
import type { WebhookEndpoint } from '../../../domain/webhook-endpoints.js';
import type { Factory } from '../../factory.js';
import { listOptions, withExamples } from '../../flags.js';
import { endpointColumns } from './view.js';

export interface EndpointListOptions {
  limit: number;
  startingAfter?: string;
}

export function define(parent: Command, f: Factory): void {
  const command = listOptions(parent.command('list').description('List webhook endpoints, newest first')).action(async (flags: EndpointListOptions) => run(flags, f));
  withExamples(command, 'pay webhooks endpoints list', 'pay webhooks endpoints list --json');
}

export async function run(options: EndpointListOptions, f: Factory): Promise<void> {
  const client = await f.client();
  const page = await client.call<ListPage<WebhookEndpoint>>('webhook_endpoints.list', { query: { limit: options.limit, starting_after: options.startingAfter } });
  f.io.printList(page.data, endpointColumns, page);
  if (page.has_more && f.io.human) f.io.info(`More: --starting-after ${page.data.at(-1)?.id}`);
}
