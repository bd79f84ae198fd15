import { maskSecret } from '../../../domain/secrets.js';
import type { WebhookEndpoint } from '../../../domain/webhook-endpoints.js';
import type { ConnectionChange, DeliveryResult, ListenSink, ReadyInfo, Routing } from '../../../webhooks/forwarder.js';
import type { Column, IO } from '../../io/io.js';

/** How endpoints are shown in lists. */
export const endpointColumns: Column<WebhookEndpoint>[] = [
  { header: 'ID', value: (e) => e.id },
  { header: 'URL', value: (e) => e.url },
  { header: 'EVENTS', value: (e) => e.subscription_group ?? e.enabled_events.join(',') },
  { header: 'STATUS', value: (e) => e.status },
  { header: 'CREATED', value: (e) => e.created },
];

function destinations(routing: Routing): string {
  const routes = routing.routes.map((r) => `${r.pattern} to ${r.url}`);
  const rest = routing.forwardTo.length > 0 ? [`${routes.length > 0 ? 'everything else' : 'events'} to ${routing.forwardTo.join(' and ')}`] : [];
  return [...routes, ...rest].join(', ');
}

function outcomeNote(result: DeliveryResult): string {
  const retry = result.retry_in_ms === null ? '' : ` in ${(result.retry_in_ms / 1000).toFixed(1)}s`;
  switch (result.outcome) {
    case 'delivered':
      return '';
    case 'rejected':
      return ' · refused by the app, not retried';
    case 'retrying':
      return ` · retrying${retry}`;
    case 'app_down':
      return ' · app not answering, kept in the spool';
    case 'gave_up':
      return ' · gave up after 24h of failures';
  }
}

/**
 * `listen`'s output: `Ready! …`, then `--> type [evt_…]` per event and
 * `<-- [status] POST url [evt_…] 12ms` per delivery, or one JSON line each with --json.
 * Connection news goes to stderr either way, and once ready, also to stdout as JSON lines
 * (disconnected, reconnected) with --json. The lines of one turn of the event loop
 * go out in one write (a write a line was a tenth of listen's time under a burst);
 * anything said on stderr, and `flush()`, write what is held first, so the order stays.
 */
export function listenSink(io: IO, options: { printSecret: boolean }): ListenSink & { flush(): void } {
  let held: string[] = [];
  const flush = () => {
    if (held.length === 0) return;
    const lines = held;
    held = [];
    io.out(lines.join('\n'));
  };
  const out = (text: string) => {
    if (held.push(text) === 1) setImmediate(flush);
  };
  const line = (value: object) => out(JSON.stringify(value));
  const notice = (message: string) => {
    flush();
    io.info(message);
  };
  const c = io.color;
  let ready = false;
  return {
    ready(info: ReadyInfo) {
      ready = true;
      const secret = options.printSecret ? info.secret : maskSecret(info.secret);
      if (io.json) {
        return line({
          type: 'ready',
          secret,
          listener: info.listener,
          forward_to: info.routing.forwardTo,
          routes: info.routing.routes,
          after: info.after,
          cursor_source: info.cursor_source,
          backlog: info.backlog,
        });
      }
      out(`${c.green('Ready!')} Forwarding ${destinations(info.routing)} · signing secret ${secret} (^C to quit)`);
    },
    event(event, targets, resend, payload) {
      // The line JSON.stringify would make of { type, resend, targets, event }, the event not serialised again.
      if (io.json) return out(`{"type":"event","resend":${resend},"targets":${JSON.stringify(targets)},"event":${payload}}`);
      const note = (resend ? ' (resent)' : '') + (targets.length === 0 ? ' · no route, not forwarded' : '');
      out(`--> ${c.bold(event.type)} [${event.id}]${note}`);
    },
    delivery(result) {
      if (io.json) return line({ type: 'delivery', ...result });
      const status = result.status === null ? 'ERR' : String(result.status);
      const paint = result.outcome === 'delivered' ? c.green : result.outcome === 'retrying' || result.outcome === 'app_down' ? c.yellow : c.red;
      const took = result.status === null ? (result.error ?? 'failed') : `${result.duration_ms}ms`;
      out(`<-- [${paint(status)}] POST ${result.url} [${result.event_id}] ${took}${outcomeNote(result)}`);
    },
    connection(change: ConnectionChange, message) {
      // Ready is the first JSON line (a script reads the secret from it): tries before it are said on stderr only.
      if (io.json && ready) line(change);
      notice(message);
    },
    notice,
    warning(message) {
      flush();
      io.warn(message);
    },
    flush,
  };
}
