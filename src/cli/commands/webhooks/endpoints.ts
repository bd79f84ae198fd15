import { SHOWN_ONCE } from '../../../domain/secrets.js';
import { type DeletedObject, namesNoEvents, type WebhookEndpoint, WebhookEndpointCreate } from '../../../domain/webhook-endpoints.js';
import { bodyFrom, defineCommand, fieldsOf, flag, group, longName } from '../../command.js';
import { SecretLostError, UsageError } from '../../errors.js';
import { pairMessage } from '../../flags.js';
import { getCommand, listCommand, stateCommand } from '../../verbs.js';
import { endpointColumns } from './view.js';

const ID = 'Webhook endpoint id (we_…)';
const fields = fieldsOf<WebhookEndpoint>()('id', 'object', 'created', 'livemode', 'url', 'subscription_group', 'enabled_events', 'description', 'status', 'disabled_reason', 'secret');

const createFlags = {
  url: flag.string('--url <url>', 'Where events are POSTed (http or https)', { prompted: true, field: 'url' }),
  subscriptionGroup: flag.string('--subscription-group <group>', 'A named set of events: payment_intent_events (every payment_intent.* and charge.* event)', { field: 'subscription_group' }),
  enabledEvents: flag.list('--enabled-events <types>', 'Event types, comma-separated or repeated; family.* and * allowed', { field: 'enabled_events' }),
  description: flag.string('--description <text>', 'What the endpoint is for', { field: 'description' }),
};

const create = defineCommand({
  name: 'create',
  description: 'Create a webhook endpoint; its signing secret is shown this once',
  flags: createFlags,
  examples: [
    'pay webhooks endpoints create --url https://example.com/hooks --subscription-group payment_intent_events',
    "pay webhooks endpoints create --url http://localhost:4242/hooks --enabled-events 'customer.created,subscription.*'",
  ],
  fields,
  async run(options, f) {
    const url = options.url ?? (await f.io.ask('--url', 'Endpoint URL'));
    let body = bodyFrom(WebhookEndpointCreate, createFlags, { ...options, url });
    if (namesNoEvents(body)) {
      const pair = [longName(createFlags.subscriptionGroup), longName(createFlags.enabledEvents)] as const;
      if (!f.io.canPrompt) throw new UsageError(`${pairMessage(pair, true)} They say which events the endpoint receives: ${pair[0]} payment_intent_events, or ${pair[1]} with event types (* for every type).`);
      const events = await f.io.choose(pair.join(' or '), 'Which events does it receive?', [
        { name: 'payment_intent_events: every payment_intent.* and charge.* event', value: { subscriptionGroup: 'payment_intent_events' } },
        { name: 'Every event (*)', value: { enabledEvents: ['*'] } },
      ]);
      body = bodyFrom(WebhookEndpointCreate, createFlags, { ...options, url, ...events });
    }
    const client = await f.client();
    const endpoint = await client.call<WebhookEndpoint>('webhook_endpoints.create', { body });
    if (endpoint.secret === SHOWN_ONCE) {
      // A retry replayed the first response, which was lost with its secret. Printed, the
      // placeholder would be taken for the secret by a script, and nothing could verify.
      throw new SecretLostError(`Webhook endpoint ${endpoint.id} was created, but its signing secret was in a response that did not arrive, and it is never shown again: delete it (pay webhooks endpoints delete ${endpoint.id} --yes) and create another.`);
    }
    if (f.io.human) {
      f.io.success(`Created webhook endpoint ${endpoint.id}`);
      f.io.warn('Save its signing secret now: it is not shown again.');
    }
    f.io.printObject(endpoint);
    return endpoint;
  },
});

/** `pay webhooks endpoints …`: URLs the service POSTs events to. */
export const endpoints = group('endpoints', 'Webhook endpoints: URLs the service POSTs events to', [
  create,
  listCommand<WebhookEndpoint>('webhook_endpoints.list', {
    description: 'List webhook endpoints, newest first',
    columns: endpointColumns,
    fields,
    query: () => import('../../../domain/webhook-endpoints.js').then((m) => m.WebhookEndpointListQuery),
    examples: ['pay webhooks endpoints list', 'pay webhooks endpoints list --json'],
  }),
  getCommand<WebhookEndpoint>('webhook_endpoints.get', {
    description: 'Show a webhook endpoint (its secret is only ever shown at creation)',
    id: ID,
    fields,
    examples: ['pay webhooks endpoints get we_123'],
  }),
  stateCommand('delete', 'webhook_endpoints.delete', {
    description: 'Delete a webhook endpoint; deliveries still due to it are canceled',
    id: ID,
    fields: fieldsOf<DeletedObject>()('id', 'object', 'created', 'livemode', 'deleted'),
    show: (f, deleted: DeletedObject) => (f.io.json ? f.io.printJSON(deleted) : f.io.success(`Deleted webhook endpoint ${deleted.id}`)),
    destructive: { what: 'deleting a webhook endpoint cancels the deliveries still due to it', question: (id) => `Delete webhook endpoint ${id}? Deliveries still due to it are canceled.` },
    examples: ['pay webhooks endpoints delete we_123', 'pay webhooks endpoints delete we_123 --yes --json'],
  }),
]);
