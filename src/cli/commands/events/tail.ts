import type { Event } from '../../../domain/events.js';
import { defineCommand, flag } from '../../command.js';
import type { Factory } from '../../factory.js';
import { eventColumns, eventFields, eventIdArg, eventTypesArg } from './view.js';

export interface TailOptions {
  types?: string[] | undefined;
  from?: string | undefined;
}

export const tail = defineCommand({
  name: 'tail',
  description: 'Stream the account\'s events to the terminal as they happen (nothing is forwarded or acknowledged)',
  flags: {
    events: flag.parsed('--events <types>', 'Only these event types, comma-separated; family.* allowed', eventTypesArg),
    from: flag.parsed('--from <evt_id>', 'Start with this event, then keep streaming', eventIdArg),
  },
  examples: ['pay events tail', "pay events tail --events 'payment_intent.*,charge.*' --json | jq .type", 'pay events tail --json id,type'],
  help: '\nWith --json: one event a line, as JSON; --json id,type keeps only those fields of each.\n',
  fields: eventFields,
  run: (options, f) => run({ types: options.events, from: options.from }, f),
});

export async function run(options: TailOptions, f: Factory): Promise<void> {
  const interrupted = f.io.untilStopped();
  const client = await f.client();
  const { lostNotice, reconnectedNotice, Tunnel } = await import('../../../webhooks/tunnel.js');
  const print = (event: Event) =>
    f.io.json ? f.io.printJSONLine(event) : f.io.out(eventColumns.map((c) => String(c.value(event) ?? '')).join(f.io.human ? '  ' : '\t'));
  let from = options.from;
  let last: string | undefined;
  // The log `last` is an event of, named with it (a cursor of another log resumes at the start of the service's), and the log of the connection.
  let log: string | undefined;
  let connectionLog: string | undefined;
  const tunnel = new Tunnel({
    baseUrl: client.baseUrl,
    headers: client.authHeaders(),
    trace: client.tracer,
    // A service it never reached is an error (exit 7); once it streamed, it reconnects until stopped.
    giveUpBeforeReady: true,
    // After a reconnect, carry on after the last event shown.
    query: () => ({ types: options.types?.join(','), ...(last !== undefined ? { after: last, log } : { from }) }),
    handlers: {
      ready: (frame, reconnected) => {
        from = undefined;
        connectionLog = frame.log;
        if (last === undefined && frame.after !== null) [last, log] = [frame.after, frame.log];
        f.io.info(reconnected ? reconnectedNotice(frame) : 'Streaming events (^C to stop)…');
      },
      event: (event, resend) => {
        if (!resend) [last, log] = [event.id, connectionLog];
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
