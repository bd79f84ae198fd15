import type { Command } from 'commander';
import type { DeletedObject } from '../../../domain/webhook-endpoints.js';
import type { Factory } from '../../factory.js';
import { withExamples } from '../../flags.js';

export function define(parent: Command, f: Factory): void {
  const command = parent
    .command('delete')
    .description('Delete a webhook endpoint; deliveries still due to it are canceled')
    .argument('<id>', 'Webhook endpoint id (we_…)')
    .action(async (id: string) => run({ id }, f));
  withExamples(command, 'pay webhooks endpoints delete we_123');
}

export async function run(options: { id: string }, f: Factory): Promise<void> {
  const client = await f.client();
  const deleted = await client.call<DeletedObject>('webhook_endpoints.delete', { params: { id: options.id } });
  if (f.io.json) return f.io.printJSON(deleted);
  f.io.success(`Deleted webhook endpoint ${deleted.id}`);
}
