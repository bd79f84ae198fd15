import type { Command } from 'commander';
import type { Event } from '../../../domain/events.js';
import type { Factory } from '../../factory.js';
import { withExamples } from '../../flags.js';
import { eventColumns, eventTypesArg } from './view.js';

export interface TailOptions {
  types?: string[] | undefined;
  from?: string | undefined;
}

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('tail')
    .description('Stream the account\'s events to the terminal as they happen (nothing is forwarded or acknowledged)')
    .option('--events <types>', 'Only these event types, comma-separated; family.* allowed', eventTypesArg)
    .option('--from <evt_id>', 'Start with this event, then keep streaming')
    .action(async (flags: { events?: string[]; from?: string }) => run({ types: flags.events, from: flags.from }, f));
  withExamples(command, 'pay events tail', 'pay events tail --events payment_intent.*,charge.* --json | jq .type');
}

export async function run(options: TailOptions, f: Factory): Promise<void> {
  const interrupted = f.io.untilStopped();
  const client = await f.client();
  const { lostNotice, reconnectedNotice, Tunnel } = await import('../../../webhooks/tunnel.js');
  const print = (event: Event) =>
    f.io.json ? f.io.out(JSON.stringify(event)) : f.io.out(eventColumns.map((c) => String(c.value(event) ?? '')).join(f.io.human ? '  ' : '\t'));
  let from = options.from;
  let last: string | undefined;
  const tunnel = new Tunnel({
    baseUrl: client.baseUrl,
    headers: client.authHeaders(),
    // After a reconnect, carry on after the last event shown.
    query: () => ({ types: options.types?.join(','), ...(last !== undefined ? { after: last } : { from }) }),
    handlers: {
      ready: (frame, reconnected) => {
        from = undefined;
        last ??= frame.after ?? undefined;
        f.io.info(reconnected ? reconnectedNotice(frame) : 'Streaming events (^C to stop)…');
      },
      event: (event, resend) => {
        if (!resend) last = event.id;
        print(event);
      },
      lost: (reason, retryInMs, wasConnected) => f.io.warn(lostNotice(client.baseUrl, reason, retryInMs, wasConnected)),
    },
  });
  const running = tunnel.run();
  await Promise.race([running, interrupted]);
  tunnel.stop();
  await running;
}
