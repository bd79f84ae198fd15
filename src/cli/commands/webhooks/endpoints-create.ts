import type { Command } from 'commander';
import { SHOWN_ONCE } from '../../../domain/secrets.js';
import { MISSING_EVENTS_MESSAGE, namesNoEvents, type WebhookEndpoint, WebhookEndpointCreate } from '../../../domain/webhook-endpoints.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { checkedBody, listArg, withExamples } from '../../flags.js';

export interface EndpointCreateOptions {
  body: WebhookEndpointCreate;
}

export function define(parent: Command, f: Factory): void {
  const command = parent
    .command('create')
    .description('Create a webhook endpoint; its signing secret is shown this once')
    .requiredOption('--url <url>', 'Where events are POSTed (http or https)')
    .option('--subscription-group <group>', 'A named set of events: payment_intent_events (every payment_intent.* and charge.* event)')
    .option('--enabled-events <types>', 'Event types, comma-separated or repeated; family.* and * allowed', listArg)
    .option('--description <text>', 'What the endpoint is for')
    .action(async (flags: { url: string; subscriptionGroup?: string; enabledEvents?: string[]; description?: string }) => {
      const body = checkedBody(WebhookEndpointCreate, {
        url: flags.url,
        subscription_group: flags.subscriptionGroup,
        enabled_events: flags.enabledEvents,
        description: flags.description,
      });
      if (namesNoEvents(body)) throw new UsageError(`Missing --subscription-group or --enabled-events. ${MISSING_EVENTS_MESSAGE}`);
      await run({ body }, f);
    });
  withExamples(
    command,
    'pay webhooks endpoints create --url https://example.com/hooks --subscription-group payment_intent_events',
    'pay webhooks endpoints create --url http://localhost:4242/hooks --enabled-events customer.created,subscription.*',
  );
}

export async function run(options: EndpointCreateOptions, f: Factory): Promise<WebhookEndpoint> {
  const client = await f.client();
  const endpoint = await client.call<WebhookEndpoint>('webhook_endpoints.create', { body: options.body });
  if (endpoint.secret === SHOWN_ONCE) {
    // A retry replayed the first response, which was lost with its secret.
    f.io.warn(`Webhook endpoint ${endpoint.id} was created, but its signing secret was in a response that did not arrive: delete it and create another.`);
  } else if (f.io.human) {
    f.io.success(`Created webhook endpoint ${endpoint.id}`);
    f.io.warn('Save its signing secret now: it is not shown again.');
  }
  f.io.printObject(endpoint);
  return endpoint;
}
