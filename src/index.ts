/**
 * The `pay` package's library entry: a typed client of the payments service, the same
 * one the `pay` CLI uses. The in-process sandbox for tests is `pay/testing`.
 */
export { createClient, type CreateClientOptions, type Method, type PayClient, type RequestOptions } from './client/resources.js';
export type { OperationTypes, Operations } from './client/operations.js';
export { NetworkError } from './client/errors.js';
export { ApiError } from './domain/errors.js';

export type { BaseObject, ListPage } from './domain/common.js';
export type { CheckoutSession, PaymentLink } from './domain/checkout.js';
export type { Customer } from './domain/customers.js';
export type { Event, EventType, EventWithDeliveries } from './domain/events.js';
export type { Charge, PaymentError, PaymentIntent, PaymentIntentStatus } from './domain/payment-intents.js';
export type { PaymentMethod } from './domain/payment-methods.js';
export type { Refund } from './domain/refunds.js';
export type { Subscription, SubscriptionStatus } from './domain/subscriptions.js';
export type { ActivationCode, TerminalReader } from './domain/terminal-readers.js';
export type { TestClockObject } from './domain/test-helpers.js';
export type { DeletedObject, WebhookEndpoint } from './domain/webhook-endpoints.js';
