import type { Command } from 'commander';
import type { WebhookEndpoint } from '../../../domain/webhook-endpoints.js';
import type { Factory } from '../../factory.js';
import { withExamples } from '../../flags.js';

export function define(parent: Command, f: Factory): void {
  const command = parent
    .command('get')
    .description('Show a webhook endpoint (its secret is only ever shown at creation)')
    .argument('<id>', 'Webhook endpoint id (we_…)')
    .action(async (id: string) => run({ id }, f));
  withExamples(command, 'pay webhooks endpoints get we_123');
}

export async function run(options: { id: string }, f: Factory): Promise<void> {
  const client = await f.client();
  f.io.printObject(await client.call<WebhookEndpoint>('webhook_endpoints.get', { params: { id: options.id } }));
}
