import type { ListQuery } from '../../domain/common.js';
import { ApiError, missing } from '../../domain/errors.js';
import { SUBSCRIPTION_GROUPS } from '../../domain/events.js';
import {
  type DeletedObject,
  MAX_WEBHOOK_ENDPOINTS,
  MISSING_EVENTS_MESSAGE,
  namesNoEvents,
  type WebhookEndpoint,
  type WebhookEndpointCreate,
} from '../../domain/webhook-endpoints.js';
import { newWebhookSecret } from '../../infra/webhook-signing.js';
import type { ServiceContext } from './context.js';

/** The endpoint, with its signing secret: the only response that ever carries it. */
export function createWebhookEndpoint(ctx: ServiceContext, input: WebhookEndpointCreate): WebhookEndpoint {
  if (namesNoEvents(input)) throw missing('enabled_events', MISSING_EVENTS_MESSAGE);
  if (ctx.list('webhook_endpoint', { limit: MAX_WEBHOOK_ENDPOINTS }).data.length >= MAX_WEBHOOK_ENDPOINTS) {
    throw new ApiError(409, 'invalid_state', `This account already has ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints, the most it can have: delete one first.`);
  }
  const group = input.subscription_group;
  const endpoint = ctx.create<WebhookEndpoint>('webhook_endpoint', {
    url: input.url,
    subscription_group: group ?? null,
    enabled_events: group === undefined ? input.enabled_events! : [...SUBSCRIPTION_GROUPS[group]],
    description: input.description ?? null,
    status: 'enabled',
    disabled_reason: null,
  });
  const secret = newWebhookSecret();
  ctx.store.deliveries.saveSecret(ctx.account.id, endpoint.id, secret);
  return { ...endpoint, secret };
}

export const getWebhookEndpoint = (ctx: ServiceContext, id: string, param = 'id') => ctx.get<WebhookEndpoint>('webhook_endpoint', id, param);

export const listWebhookEndpoints = (ctx: ServiceContext, query: ListQuery) =>
  ctx.list<WebhookEndpoint>('webhook_endpoint', { limit: query.limit, starting_after: query.starting_after });

/** Deletes the endpoint; what was still to be delivered to it is canceled. */
export function deleteWebhookEndpoint(ctx: ServiceContext, id: string): DeletedObject {
  const { created } = getWebhookEndpoint(ctx, id);
  ctx.remove('webhook_endpoint', id);
  ctx.store.deliveries.cancelForEndpoint(ctx.account.id, id);
  return { id, object: 'webhook_endpoint', created, livemode: false, deleted: true };
}

/** An endpoint that answered 410 Gone asked for nothing more: it is disabled. */
export function disableWebhookEndpoint(ctx: ServiceContext, id: string, reason: string): void {
  const endpoint = ctx.find<WebhookEndpoint>('webhook_endpoint', id);
  if (!endpoint || endpoint.status === 'disabled') return;
  ctx.update<WebhookEndpoint>({ ...endpoint, status: 'disabled', disabled_reason: reason });
  ctx.store.deliveries.cancelForEndpoint(ctx.account.id, id);
}
