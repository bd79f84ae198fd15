import type { Command } from 'commander';
import { type Event, EventPatternList } from '../../../domain/events.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { withExamples } from '../../flags.js';
import { eventColumns } from './view.js';

export interface TailOptions {
  types?: string[] | undefined;
  from?: string | undefined;
}

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('tail')
    .description('Stream the account\'s events to the terminal as they happen (nothing is forwarded or acknowledged)')
    .option('--events <types>', 'Only these event types, comma-separated; family.* allowed')
    .option('--from <evt_id>', 'Start with this event, then keep streaming')
    .action(async (flags: { events?: string; from?: string }) => {
      let types: string[] | undefined;
      if (flags.events !== undefined) {
        const parsed = EventPatternList.safeParse(flags.events);
        if (!parsed.success) throw new UsageError(`Invalid --events: ${parsed.error.issues[0]!.message}`);
        types = parsed.data;
      }
      await run({ types, from: flags.from }, f);
    });
  withExamples(command, 'pay events tail', 'pay events tail --events payment_intent.*,charge.* --json | jq .type');
}

export async function run(options: TailOptions, f: Factory): Promise<void> {
  const interrupted = f.io.untilStopped();
  const client = await f.client();
  const { Tunnel } = await import('../../../webhooks/tunnel.js');
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
        f.io.info(reconnected ? `Reconnected: resumed after ${frame.after ?? 'the start'}, ${frame.backlog} events replayed.` : 'Streaming events (^C to stop)…');
      },
      event: (event, resend) => {
        if (!resend) last = event.id;
        print(event);
      },
      lost: (reason, retryInMs) => f.io.warn(`Lost the connection (${reason}): reconnecting in ${(retryInMs / 1000).toFixed(1)}s…`),
    },
  });
  const running = tunnel.run();
  await Promise.race([running, interrupted]);
  tunnel.stop();
  await running;
}
