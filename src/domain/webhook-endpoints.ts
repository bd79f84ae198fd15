import { z } from 'zod';
import { type BaseObject, HttpUrlWithoutCredentials, ListQueryOf } from './common.js';
import { bothIssue } from './errors.js';
import { EventPattern, SUBSCRIPTION_GROUPS, type SubscriptionGroup } from './events.js';

const GROUPS = Object.keys(SUBSCRIPTION_GROUPS) as [SubscriptionGroup, ...SubscriptionGroup[]];

/** `{url, subscription_group}` or `{url, enabled_events}`, exactly one of the two. */
export const WebhookEndpointCreate = z
  .strictObject({
    url: HttpUrlWithoutCredentials('https://example.com/webhooks'),
    subscription_group: z.enum(GROUPS, { error: `must be one of: ${GROUPS.join(', ')}` }).optional(),
    enabled_events: z
      .array(z.union([z.literal('*'), EventPattern]), { error: 'must be a list of event types, or ["*"] for every type' })
      .min(1, { error: 'name at least one event type, or "*"' })
      .optional(),
    description: z.string().max(500, { error: 'must be at most 500 characters' }).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.subscription_group !== undefined && value.enabled_events !== undefined) {
      ctx.addIssue(bothIssue(['subscription_group', 'enabled_events']));
    }
  });
export type WebhookEndpointCreate = z.infer<typeof WebhookEndpointCreate>;
export const WebhookEndpointListQuery = ListQueryOf('we');

/** The one rule of a missing target, for the service's 400 and the CLI's usage error. */
export const MISSING_EVENTS_MESSAGE = 'Say which events the endpoint receives: subscription_group "payment_intent_events", or enabled_events (a list of event types, or ["*"]).';
export const namesNoEvents = (body: WebhookEndpointCreate) => body.subscription_group === undefined && body.enabled_events === undefined;

export interface WebhookEndpoint extends BaseObject {
  object: 'webhook_endpoint';
  url: string;
  subscription_group: SubscriptionGroup | null;
  /** Types or `family.*` patterns; a group's patterns when created with one. */
  enabled_events: string[];
  description: string | null;
  /** `disabled` once the endpoint answered 410 Gone: nothing more is sent to it. */
  status: 'enabled' | 'disabled';
  disabled_reason: string | null;
  /** Only in the response that creates the endpoint. */
  secret?: string;
}

/** What a delete answers: the object's id, kind and creation, as every object carries them (DESIGN section 4). */
export interface DeletedObject extends BaseObject {
  deleted: true;
}

/** The most endpoints an account may have (as with the hosted service's own limit). */
export const MAX_WEBHOOK_ENDPOINTS = 16;
