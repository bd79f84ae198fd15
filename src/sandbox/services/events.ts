import { invalidState, notFound } from '../../domain/errors.js';
import type { Event, EventListQuery, EventResend, EventWithDeliveries, ResendResult } from '../../domain/events.js';
import type { ServiceContext } from './context.js';
import { getWebhookEndpoint } from './webhook-endpoints.js';

export const listEvents = (ctx: ServiceContext, query: EventListQuery) => ctx.store.events.list(ctx.account.id, query);

function findEvent(ctx: ServiceContext, id: string): Event {
  const event = ctx.store.events.find(ctx.account.id, id);
  if (!event) throw notFound('event', id);
  return event;
}

/** The event with what happened to it at each webhook endpoint. */
export function getEvent(ctx: ServiceContext, id: string): EventWithDeliveries {
  return { ...findEvent(ctx, id), deliveries: ctx.store.deliveries.forEvent(ctx.account.id, id) };
}

/**
 * Sends the event again: to the endpoint named, or to every enabled endpoint that wants
 * its type, and to every running listen tunnel of the account that wants it. Receivers
 * see the same webhook-id, their dedup key.
 */
export function resendEvent(ctx: ServiceContext, id: string, input: EventResend): ResendResult {
  const event = findEvent(ctx, id);
  let only;
  if (input.webhook_endpoint_id !== undefined) {
    only = getWebhookEndpoint(ctx, input.webhook_endpoint_id, 'webhook_endpoint_id');
    if (only.status !== 'enabled') throw invalidState('webhook_endpoint', only.id, only.status, 'resend to');
  }
  const endpoints = ctx.deliver(event, only);
  // Tunnels are sent to at once: a resend is harmless even if this request rolled back.
  const listeners = only === undefined ? ctx.env.sinks.resendToListeners(ctx.account.id, event) : 0;
  return { object: 'event_resend', created: ctx.now, livemode: false, event: event.id, webhook_endpoints: endpoints, listeners };
}
