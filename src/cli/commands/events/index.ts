import type { Event, EventWithDeliveries, ResendResult } from '../../../domain/events.js';
import { fieldsOf, flag, verbs } from '../../command.js';
import { getCommand, listCommand, stateCommand } from '../../verbs.js';
import { tail } from './tail.js';
import { eventColumns, eventFields, printEvent } from './view.js';

const ID = 'Event id (evt_…)';

export const register = verbs(
  listCommand<Event>('events.list', {
    description: 'List the account\'s events, newest first',
    columns: eventColumns,
    fields: eventFields,
    query: () => import('../../../domain/events.js').then((m) => m.EventListQuery),
    filters: {
      type: flag.string('--type <type>', 'Only this type, or a family: payment_intent.*', { field: 'type' }),
      createdGte: flag.string('--created-gte <when>', 'Created at or after this date or date-time', { field: 'created[gte]' }),
      createdGt: flag.string('--created-gt <when>', 'Created after this date or date-time', { field: 'created[gt]' }),
      createdLte: flag.string('--created-lte <when>', 'Created at or before this date or date-time', { field: 'created[lte]' }),
      createdLt: flag.string('--created-lt <when>', 'Created before this date or date-time', { field: 'created[lt]' }),
    },
    examples: ["pay events list --type 'payment_intent.*'", 'pay events list --created-gte 2030-01-01 --created-lt 2030-02-01 --limit 100 --json'],
  }),
  getCommand<EventWithDeliveries>('events.get', {
    description: 'Show an event and its delivery attempts at each webhook endpoint',
    id: ID,
    fields: [...eventFields, 'deliveries'],
    show: (f, event) => printEvent(f.io, event),
    examples: ['pay events get evt_123', 'pay events get evt_123 --json | jq \'.deliveries[].attempts\''],
  }),
  stateCommand('resend', 'events.resend', {
    description: 'Send an event again: to its webhook endpoints and to running pay webhooks listen processes',
    id: ID,
    flags: { webhookEndpoint: flag.string('--webhook-endpoint <we_id>', 'Only to this webhook endpoint (even if it does not subscribe to the type)', { field: 'webhook_endpoint_id' }) },
    body: () => import('../../../domain/events.js').then((m) => m.EventResend),
    fields: fieldsOf<ResendResult>()('object', 'created', 'livemode', 'event', 'webhook_endpoints', 'listeners'),
    show(f, result: ResendResult, options) {
      if (f.io.json) return f.io.printJSON(result);
      const endpoints = result.webhook_endpoints.length;
      const listeners = options.webhookEndpoint === undefined ? ` and ${result.listeners} running listener${result.listeners === 1 ? '' : 's'}.` : '.';
      f.io.success(`Resent ${result.event} to ${endpoints} webhook endpoint${endpoints === 1 ? '' : 's'}${listeners}`);
    },
    examples: ['pay events resend evt_123', 'pay events resend evt_123 --webhook-endpoint we_123'],
  }),
  tail,
);
