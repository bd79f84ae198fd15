import type { z } from 'zod';
import { CheckoutSessionCreate, PaymentLinkCreate } from './checkout.js';
import { CustomerCreate } from './customers.js';
import { type EndpointName, endpoints } from './endpoints.js';
import { EventResend } from './events.js';
import { PaymentIntentCancel, PaymentIntentCapture, PaymentIntentConfirm, PaymentIntentCreate, PaymentIntentUpdate } from './payment-intents.js';
import { PaymentMethodAttach, PaymentMethodCreate } from './payment-methods.js';
import { RefundCreate } from './refunds.js';
import { SubscriptionCreate, SubscriptionUpdate } from './subscriptions.js';
import { ReaderActivate, ReaderPresent } from './terminal-readers.js';
import { AccountCreate, ClockAdvance } from './test-helpers.js';
import { WebhookEndpointCreate } from './webhook-endpoints.js';

/**
 * The body each endpoint that takes one accepts: what the sandbox validates a request
 * with, and what `pay trigger` checks a flow's overrides against before anything runs.
 */
export const REQUEST_BODIES = {
  'customers.create': CustomerCreate,
  'payment_methods.create': PaymentMethodCreate,
  'payment_methods.attach': PaymentMethodAttach,
  'payment_intents.create': PaymentIntentCreate,
  'payment_intents.update': PaymentIntentUpdate,
  'payment_intents.confirm': PaymentIntentConfirm,
  'payment_intents.capture': PaymentIntentCapture,
  'payment_intents.cancel': PaymentIntentCancel,
  'refunds.create': RefundCreate,
  'checkout_sessions.create': CheckoutSessionCreate,
  'payment_links.create': PaymentLinkCreate,
  'subscriptions.create': SubscriptionCreate,
  'subscriptions.update': SubscriptionUpdate,
  'terminal_readers.activate': ReaderActivate,
  'webhook_endpoints.create': WebhookEndpointCreate,
  'events.resend': EventResend,
  'test_helpers.clock_advance': ClockAdvance,
  'test_helpers.accounts_create': AccountCreate,
  'test_helpers.reader_present': ReaderPresent,
} as const satisfies Partial<Record<EndpointName, z.ZodType>>;

/** What a request to endpoint N carries once validated (undefined for one without a body). */
export type BodyOf<N extends EndpointName> = N extends keyof typeof REQUEST_BODIES ? z.output<(typeof REQUEST_BODIES)[N]> : undefined;

export const bodySchemaOf = (name: EndpointName): z.ZodType | undefined => (REQUEST_BODIES as Partial<Record<EndpointName, z.ZodType>>)[name];

/**
 * The endpoint a request goes to, by method and path (a `{id}` placeholder matches any
 * segment; a fixed sub-path such as /activate wins over it).
 */
export function endpointOf(method: string, path: string): EndpointName | undefined {
  const segments = path.split('/');
  const matches = (Object.keys(endpoints) as EndpointName[]).filter((name) => {
    const pattern = endpoints[name].path.split('/');
    return endpoints[name].method === method && pattern.length === segments.length && pattern.every((part, i) => part.startsWith('{') || part === segments[i]);
  });
  const placeholders = (name: EndpointName) => endpoints[name].path.split('{').length;
  return matches.sort((a, b) => placeholders(a) - placeholders(b))[0];
}
