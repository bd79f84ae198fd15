import { z } from 'zod';
import { type BaseObject, IdOf, Instant, ListQueryOf } from './common.js';
import { clip } from './errors.js';

/**
 * The catalogue of event types (spec section 6, DESIGN section 5). `ctx.emit` takes only
 * these, so a new kind of event is added here first; endpoints, `listen --events` and
 * `events list --type` accept these and `family.*` patterns of them.
 */
export const EVENT_TYPES = [
  'customer.created',
  'payment_method.attached',
  'payment_intent.created',
  'payment_intent.requires_action',
  'payment_intent.amount_capturable_updated',
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.canceled',
  'payment_intent.updated',
  'charge.succeeded',
  'charge.failed',
  'charge.captured',
  'charge.canceled',
  'charge.refund.pending',
  'charge.refunded',
  'charge.refund.failed',
  'subscription.created',
  'subscription.updated',
  'subscription.canceled',
  'checkout_session.completed',
  'checkout_session.expired',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Webhook endpoint subscription groups: a name for a set of patterns. */
export const SUBSCRIPTION_GROUPS = {
  payment_intent_events: ['payment_intent.*', 'charge.*'],
} as const satisfies Record<string, readonly string[]>;
export type SubscriptionGroup = keyof typeof SUBSCRIPTION_GROUPS;

/** An event as the service stores and delivers it. */
export interface Event extends BaseObject {
  object: 'event';
  type: EventType;
  /** The object's snapshot; intent events add payment_intent_id and, for subscriptions, subscription_id. */
  data: { object: BaseObject } & Record<string, unknown>;
}

/** One try to deliver an event to an endpoint (real time, not the test clock). */
export interface DeliveryAttempt {
  attempted_at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'canceled';

/** What happened to an event at one webhook endpoint, shown by `GET /v1/events/{id}`. */
export interface Delivery {
  webhook_endpoint_id: string;
  url: string;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  next_attempt_at: string | null;
}

export interface EventWithDeliveries extends Event {
  deliveries: Delivery[];
}

export interface ResendResult {
  object: 'event_resend';
  /** When it was resent (the clock's now); a resend has no id of its own. */
  created: string;
  livemode: false;
  event: string;
  webhook_endpoints: string[];
  listeners: number;
}

/** `*` (every type), an exact type, or `family.*` (every type under that prefix). */
export function matchesType(pattern: string, type: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return type.startsWith(pattern.slice(0, -1));
  return pattern === type;
}

export const matchesAny = (patterns: readonly string[], type: string) => patterns.some((p) => matchesType(p, type));

/** Why a pattern names no event of the catalogue, or undefined when it names some. */
export function unknownTypeMessage(pattern: string): string | undefined {
  if (EVENT_TYPES.some((t) => matchesType(pattern, t))) return undefined;
  const family = pattern.split('.')[0] ?? '';
  const near = EVENT_TYPES.filter((t) => t.startsWith(`${family}.`));
  const hint = near.length > 0 ? ` Types of ${family}: ${near.join(', ')}.` : ` Known types: ${EVENT_TYPES.join(', ')}.`;
  return `unknown event type '${clip(pattern)}'.${hint}`;
}

/** A type or pattern of the catalogue, checked with a message naming the unknown one. */
export const EventPattern = z.string({ error: 'must be an event type, e.g. payment_intent.succeeded' }).superRefine((value, ctx) => {
  const message = unknownTypeMessage(value);
  if (message !== undefined) ctx.addIssue({ code: 'custom', message });
});

/** `GET /v1/events`: a type (or `family.*`), a created range, and the cursor. */
export const EventListQuery = ListQueryOf('evt').extend({
  type: EventPattern.optional(),
  'created[gte]': Instant.optional(),
  'created[gt]': Instant.optional(),
  'created[lte]': Instant.optional(),
  'created[lt]': Instant.optional(),
});
export type EventListQuery = z.infer<typeof EventListQuery>;

export const EventResend = z.strictObject({
  webhook_endpoint_id: IdOf('we').optional(),
});
export type EventResend = z.infer<typeof EventResend>;

/** Comma-separated types of `listen?types=` and `--events`. */
export const EventPatternList = z
  .string()
  .transform((s) => s.split(',').map((t) => t.trim()).filter(Boolean))
  .pipe(z.array(EventPattern).min(1, { error: 'name at least one event type' }));
