import { HttpUrlWithoutCredentials } from '../../../domain/common.js';
import { EventPattern } from '../../../domain/events.js';
import type { DeliveryResult, Routing, RunEnd } from '../../../webhooks/forwarder.js';
import { defineCommand, flag, type OptionsOf } from '../../command.js';
import { CheckFailedError, UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { durationArg } from '../../flags.js';
import { eventIdArg, eventTypesArg } from '../events/view.js';
import { listenSink } from './view.js';
import { plural } from '../../io/io.js';

// Its lines show the URLs and its spool keeps them: by the rule of a webhook endpoint's URL.
const TargetUrl = HttpUrlWithoutCredentials('http://localhost:4242/webhooks');
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const flags = {
  forwardTo: flag.repeated('--forward-to <url>', 'Send events to this URL (repeatable; its query string is kept)'),
  route: flag.repeated('--route <pattern=url>', 'Send events of a type or family to a URL instead, e.g. \'subscription.*=http://localhost:3000/subs\' (repeatable)'),
  events: flag.parsed('--events <types>', 'Only these event types, comma-separated; family.* allowed', eventTypesArg),
  forwardHeader: flag.repeated('--forward-header <header>', 'Add a header to forwarded requests, \'Name: value\' (repeatable)'),
  printSecret: flag.bool('--print-secret', 'Show the signing secret whole in the Ready line; alone (no --forward-to), print it and exit'),
  skipVerify: flag.bool('--skip-verify', 'Do not verify TLS certificates of https targets (self-signed local apps)'),
  timeout: flag.parsed('--timeout <duration>', 'How long the app may take to answer before the event is retried (e.g. 30s, 10m for a debugger)', durationArg, { default: '30s' }),
  giveUpAfter: flag.parsed('--give-up-after <duration>', 'Exit 7 once the service has been unreachable this long, instead of reconnecting forever', durationArg),
  from: flag.parsed('--from <evt_id>', 'Replay from this event (included), instead of resuming after the last one received', eventIdArg),
  exitAfterIdle: flag.parsed('--exit-after-idle <duration>', 'Exit once ready and no event has come or been settled for this long (CI)', durationArg),
  maxEvents: flag.int('--max-events <n>', 'Exit once this many events were forwarded and acknowledged (CI)'),
  failOnError: flag.bool('--fail-on-error', 'Exit 1 if the app answered any event with a non-2xx (after the retries made before exiting), naming them'),
};
export type ListenOptions = OptionsOf<Record<never, never>, typeof flags>;

export const listen = defineCommand({
  name: 'listen',
  description: 'Forward the account\'s events to a local app, signed, never losing one (spooled while the app restarts)',
  flags,
  examples: [
    'pay webhooks listen --forward-to http://localhost:4242/webhooks',
    'export APP_WEBHOOK_SECRET=$(pay webhooks listen --print-secret)   # the app\'s secret, the same on every run',
    "pay webhooks listen --forward-to http://localhost:4242/hooks --route 'subscription.*=http://localhost:4242/billing' --events 'payment_intent.*,subscription.*'",
    'pay webhooks listen --forward-to http://localhost:4242/hooks --timeout 10m      # stop at a breakpoint without losing events',
    'pay webhooks listen --forward-to http://app:4242/hooks --give-up-after 2m --json  # in a container',
    'pay webhooks listen --forward-to http://localhost:4242/hooks --max-events 3 --exit-after-idle 30s --fail-on-error &   # CI: see the README',
  ],
  jsonLines: 'one object a line, its "type" saying which: ready (first), event, delivery, disconnected and reconnected (the tunnel\'s), and stopped (last).',
  run: (options, f) => run(options, f),
});

/** The URL is not repeated: it may carry a password. */
function checkUrl(flag: string, url: string): string {
  const result = TargetUrl.safeParse(url);
  if (!result.success) throw new UsageError(`Invalid ${flag}: ${result.error.issues[0]!.message}.`);
  return url;
}

function checkPattern(flag: string, pattern: string): string {
  const result = EventPattern.safeParse(pattern);
  if (!result.success) throw new UsageError(`Invalid ${flag}: ${result.error.issues[0]!.message}`);
  return pattern;
}

/** The flags as a routing table, a type filter and headers; every value checked before connecting. */
function checkOptions(options: ListenOptions): { routing: Routing; headers: Record<string, string> } {
  const routes = (options.route ?? []).map((value) => {
    const eq = value.indexOf('=');
    if (eq <= 0) throw new UsageError(`Invalid --route '${value}': expected pattern=url, e.g. 'subscription.*=http://localhost:3000/subs'.`);
    return { pattern: checkPattern('--route', value.slice(0, eq)), url: checkUrl('--route', value.slice(eq + 1)) };
  });
  const forwardTo = (options.forwardTo ?? []).map((url) => checkUrl('--forward-to', url));
  if (forwardTo.length === 0 && routes.length === 0 && !options.printSecret) {
    throw new UsageError('Missing --forward-to: say where events go, e.g. --forward-to http://localhost:4242/webhooks (to only watch them: pay events tail; to only see the signing secret: --print-secret).');
  }
  const headers: Record<string, string> = {};
  for (const header of options.forwardHeader ?? []) {
    const colon = header.indexOf(':');
    const name = header.slice(0, colon).trim();
    if (colon <= 0 || !HEADER_NAME.test(name)) throw new UsageError(`Invalid --forward-header '${header}': expected 'Name: value'.`);
    headers[name.toLowerCase()] = header.slice(colon + 1).trim();
  }
  if (options.maxEvents !== undefined && options.maxEvents < 1) throw new UsageError(`Invalid --max-events ${options.maxEvents}: must be 1 or more.`);
  return { routing: { forwardTo, routes }, headers };
}

export async function run(options: ListenOptions, f: Factory): Promise<void> {
  const { routing, headers } = checkOptions(options);
  if (routing.forwardTo.length === 0 && routing.routes.length === 0) return printSecret(f);
  // From here an interrupt is a clean stop (exit 0), not a cancellation.
  const interrupted = f.io.untilStopped();
  const profile = await f.profile();
  const client = await f.client();
  const { listenIdentity } = await import('../../../webhooks/identity.js');
  const identity = await listenIdentity(profile, await f.profiles());
  const { Forwarder, waitingElsewhere } = await import('../../../webhooks/forwarder.js');
  const sink = listenSink(f.io, { printSecret: options.printSecret });
  const forwarder = new Forwarder({
    baseUrl: client.baseUrl,
    headers: client.authHeaders(),
    listenerId: identity.listenerId,
    secret: identity.secret,
    spoolFile: identity.spoolFile,
    routing,
    types: options.events,
    from: options.from,
    forwardHeaders: headers,
    timeoutMs: options.timeout,
    skipVerify: options.skipVerify,
    giveUpAfterMs: options.giveUpAfter,
    exitAfterIdleMs: options.exitAfterIdle,
    maxEvents: options.maxEvents,
    sink,
    trace: client.tracer,
  });
  // What waits for this run's URLs goes out with the next run; what waits for others, with a run that forwards there.
  const sayLeft = (stopped: string) => {
    const { events: here, elsewhere } = forwarder.left;
    const spooled = here === 0 ? '' : `${plural(here, 'event')} ${here === 1 ? 'waits in the spool: the next pay webhooks listen delivers it' : 'wait in the spool: the next pay webhooks listen delivers them'}.`;
    const line = [stopped, spooled].filter((part) => part !== '').join(' ');
    if (line !== '') f.io.info(line);
    for (const { target, events } of elsewhere) f.io.info(waitingElsewhere(target, events));
  };
  const running = forwarder.run();
  let waiting: number;
  let ended: RunEnd;
  try {
    await Promise.race([running, interrupted]);
    waiting = await forwarder.stop();
    ended = await running;
  } catch (error) {
    // Given up on the service, or refused by it: what the spool keeps is not lost, and is said before the error.
    sink.flush();
    sayLeft('');
    throw error;
  } finally {
    // The lines of the last turn, before the stopped line or the error.
    sink.flush();
  }
  const failed = forwarder.failures();
  if (f.io.json) f.io.printJSONLine({ type: 'stopped', reason: ended, events: forwarder.settled, waiting, failed });
  sayLeft(`Stopped${stopReason(ended, options, forwarder.settled)}.`);
  if (options.failOnError && failed.length > 0) {
    const lines = failed.map((result) => `  ${result.event_id} ${result.event_type} · POST ${result.url} → ${answer(result)}`);
    throw new CheckFailedError(`The app did not take ${plural(failed.length, 'event')} (--fail-on-error):\n${lines.join('\n')}`);
  }
}

/**
 * `--print-secret` alone, as the Stripe CLI's: the profile's signing secret (made now if
 * it never listened, and kept), for the app's configuration; nothing is received.
 */
async function printSecret(f: Factory): Promise<void> {
  const profile = await f.profile();
  const { listenIdentity } = await import('../../../webhooks/identity.js');
  const { secret } = await listenIdentity(profile, await f.profiles());
  if (f.io.json) f.io.printJSON({ secret }, { whole: true });
  else f.io.out(secret);
}

function stopReason(ended: RunEnd, options: ListenOptions, settled: number): string {
  if (ended === 'idle') return `: no event for ${options.exitAfterIdle! / 1000}s (${plural(settled, 'event')} settled)`;
  if (ended === 'max_events') return ` after ${plural(settled, 'event')} (--max-events)`;
  return '';
}

/** The app's last answer to an event it did not take, and what became of it. */
function answer(result: DeliveryResult): string {
  const status = result.status === null ? (result.error ?? 'no answer') : `[${result.status}]`;
  const fate = { rejected: 'refused, not retried', gave_up: 'given up', retrying: `still failing after ${plural(result.attempt, 'attempt')}`, app_down: 'app not answering', delivered: '' }[result.outcome];
  return `${status} · ${fate}`;
}
