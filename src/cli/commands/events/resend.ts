import type { Command } from 'commander';
import type { ResendResult } from '../../../domain/events.js';
import type { Factory } from '../../factory.js';
import { withExamples } from '../../flags.js';

export interface ResendOptions {
  id: string;
  webhookEndpoint?: string | undefined;
}

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('resend')
    .description('Send an event again: to its webhook endpoints and to running pay webhooks listen processes')
    .argument('<id>', 'Event id (evt_…)')
    .option('--webhook-endpoint <we_id>', 'Only to this webhook endpoint (even if it does not subscribe to the type)')
    .action(async (id: string, flags: { webhookEndpoint?: string }) => run({ id, webhookEndpoint: flags.webhookEndpoint }, f));
  withExamples(command, 'pay events resend evt_123', 'pay events resend evt_123 --webhook-endpoint we_123');
}

export async function run(options: ResendOptions, f: Factory): Promise<void> {
  const client = await f.client();
  const result = await client.call<ResendResult>('events.resend', {
    params: { id: options.id },
    body: options.webhookEndpoint === undefined ? {} : { webhook_endpoint_id: options.webhookEndpoint },
  });
  if (f.io.json) return f.io.printJSON(result);
  const endpoints = result.webhook_endpoints.length;
  f.io.success(
    `Resent ${result.event} to ${endpoints} webhook endpoint${endpoints === 1 ? '' : 's'}` +
      (options.webhookEndpoint === undefined ? ` and ${result.listeners} running listener${result.listeners === 1 ? '' : 's'}.` : '.'),
  );
}
