import type { z } from 'zod';
import type { CheckoutSession, CheckoutSessionCreate, CheckoutSessionListQuery, PaymentLink, PaymentLinkCreate } from '../domain/checkout.js';
import type { ListPage, ListQuery } from '../domain/common.js';
import type { Customer, CustomerCreate, CustomerListQuery } from '../domain/customers.js';
import type { EndpointName } from '../domain/endpoints.js';
import type { Event, EventListQuery, EventResend, EventWithDeliveries, ResendResult } from '../domain/events.js';
import type {
  Charge,
  ChargeListQuery,
  PaymentIntent,
  PaymentIntentCancel,
  PaymentIntentCapture,
  PaymentIntentConfirm,
  PaymentIntentCreate,
  PaymentIntentListQuery,
  PaymentIntentUpdate,
} from '../domain/payment-intents.js';
import type { PaymentMethod, PaymentMethodAttach, PaymentMethodCreate, PaymentMethodListQuery } from '../domain/payment-methods.js';
import type { Refund, RefundCreate, RefundListQuery } from '../domain/refunds.js';
import type { Subscription, SubscriptionCreate, SubscriptionListQuery, SubscriptionUpdate } from '../domain/subscriptions.js';
import type { ActivationCode, PresentOutcome, ReaderActivate, ReaderListQuery, ReaderPresent, TerminalReader } from '../domain/terminal-readers.js';
import type { AccountCreate, TestClockObject } from '../domain/test-helpers.js';
import type { DeletedObject, WebhookEndpoint, WebhookEndpointCreate } from '../domain/webhook-endpoints.js';

/** A request body as a caller writes it (before the schema's defaults and transforms). */
type Body<S extends z.ZodType> = z.input<S>;
/** A list's query: every filter optional, typed as the service reads it. */
type Query<S extends z.ZodType> = Partial<z.output<S>>;
/** No body: nothing to send. */
type None = Record<string, never>;

/**
 * What each endpoint of the table (domain/endpoints.ts) takes and answers: the same
 * schemas and types the sandbox and the CLI use. WebSocket endpoints have no entry.
 */
export interface OperationTypes {
  'customers.create': { body: Body<typeof CustomerCreate>; result: Customer };
  'customers.get': { result: Customer };
  'customers.list': { query: Query<typeof CustomerListQuery>; result: ListPage<Customer> };

  'payment_methods.create': { body: Body<typeof PaymentMethodCreate>; result: PaymentMethod };
  'payment_methods.get': { result: PaymentMethod };
  'payment_methods.list': { query: Query<typeof PaymentMethodListQuery>; result: ListPage<PaymentMethod> };
  'payment_methods.attach': { body: Body<typeof PaymentMethodAttach>; result: PaymentMethod };

  'payment_intents.create': { body: Body<typeof PaymentIntentCreate>; result: PaymentIntent };
  'payment_intents.get': { result: PaymentIntent };
  'payment_intents.list': { query: Query<typeof PaymentIntentListQuery>; result: ListPage<PaymentIntent> };
  'payment_intents.update': { body: Body<typeof PaymentIntentUpdate>; result: PaymentIntent };
  'payment_intents.confirm': { body: Body<typeof PaymentIntentConfirm>; result: PaymentIntent };
  'payment_intents.capture': { body: Body<typeof PaymentIntentCapture>; result: PaymentIntent };
  'payment_intents.cancel': { body: Body<typeof PaymentIntentCancel>; result: PaymentIntent };

  'charges.get': { result: Charge };
  'charges.list': { query: Query<typeof ChargeListQuery>; result: ListPage<Charge> };

  'refunds.create': { body: Body<typeof RefundCreate>; result: Refund };
  'refunds.get': { result: Refund };
  'refunds.list': { query: Query<typeof RefundListQuery>; result: ListPage<Refund> };

  'checkout_sessions.create': { body: Body<typeof CheckoutSessionCreate>; result: CheckoutSession };
  'checkout_sessions.get': { result: CheckoutSession };
  'checkout_sessions.list': { query: Query<typeof CheckoutSessionListQuery>; result: ListPage<CheckoutSession> };

  'payment_links.create': { body: Body<typeof PaymentLinkCreate>; result: PaymentLink };
  'payment_links.get': { result: PaymentLink };
  'payment_links.list': { query: Query<typeof ListQuery>; result: ListPage<PaymentLink> };

  'subscriptions.create': { body: Body<typeof SubscriptionCreate>; result: Subscription };
  'subscriptions.get': { result: Subscription };
  'subscriptions.list': { query: Query<typeof SubscriptionListQuery>; result: ListPage<Subscription> };
  // The declared type: the schema also names the immutable fields, only to refuse them.
  'subscriptions.update': { body: SubscriptionUpdate; result: Subscription };
  'subscriptions.retry': { body: None; result: Subscription };
  'subscriptions.pause': { body: None; result: Subscription };
  'subscriptions.resume': { body: None; result: Subscription };
  'subscriptions.cancel': { body: None; result: Subscription };

  'terminal_readers.get': { result: TerminalReader };
  'terminal_readers.list': { query: Query<typeof ReaderListQuery>; result: ListPage<TerminalReader> };
  'terminal_readers.activation_code': { body: None; result: ActivationCode };
  'terminal_readers.activate': { body: Body<typeof ReaderActivate>; result: TerminalReader };

  'webhook_endpoints.create': { body: Body<typeof WebhookEndpointCreate>; result: WebhookEndpoint };
  'webhook_endpoints.get': { result: WebhookEndpoint };
  'webhook_endpoints.list': { query: Query<typeof ListQuery>; result: ListPage<WebhookEndpoint> };
  'webhook_endpoints.delete': { body: None; result: DeletedObject };

  'events.get': { result: EventWithDeliveries };
  'events.list': { query: Query<typeof EventListQuery>; result: ListPage<Event> };
  'events.resend': { body: Body<typeof EventResend>; result: ResendResult };

  'test_helpers.clock': { result: TestClockObject };
  'test_helpers.clock_advance': { body: { to: string } | { days: number }; result: TestClockObject };
  'test_helpers.accounts_create': { body: Body<typeof AccountCreate>; result: { object: 'account'; id: string; api_key: string; clock: TestClockObject } };
  'test_helpers.reset': { body: None; result: { object: 'reset'; account: string; clock: TestClockObject } };
  // The outcome's synonyms are accepted too; these are its names.
  'test_helpers.reader_present': { body: Omit<ReaderPresent, 'outcome'> & { outcome?: PresentOutcome }; result: PaymentIntent | Refund };
}

/** Endpoints spoken over WebSocket, not by request and answer. */
export type SocketEndpoint = 'listen' | 'terminal_readers.connect';
export const SOCKET_ENDPOINTS: readonly SocketEndpoint[] = ['listen', 'terminal_readers.connect'];

/** Every request endpoint of the table, each with its types (a missing one fails to compile). */
export type Operations = { [N in Exclude<EndpointName, SocketEndpoint>]: OperationTypes[N] };
