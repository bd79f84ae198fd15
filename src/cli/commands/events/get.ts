import type { Command } from 'commander';
import type { EventWithDeliveries } from '../../../domain/events.js';
import type { Factory } from '../../factory.js';
import { withExamples } from '../../flags.js';
import { printEvent } from './view.js';

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('get')
    .description('Show an event and its delivery attempts at each webhook endpoint')
    .argument('<id>', 'Event id (evt_…)')
    .action(async (id: string) => run({ id }, f));
  withExamples(command, 'pay events get evt_123', 'pay events get evt_123 --json | jq \'.deliveries[].attempts\'');
}

export async function run(options: { id: string }, f: Factory): Promise<void> {
  const client = await f.client();
  printEvent(f.io, await client.call<EventWithDeliveries>('events.get', { params: { id: options.id } }));
}
