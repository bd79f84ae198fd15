import type { FastifyInstance } from 'fastify';
import type { Sandbox } from '../sandbox.js';
import { checkoutPageRoutes } from './checkout-pages.js';
import { checkoutRoutes } from './checkout.js';
import { customerRoutes } from './customers.js';
import { eventRoutes } from './events.js';
import { paymentIntentRoutes } from './payment-intents.js';
import { paymentMethodRoutes } from './payment-methods.js';
import { refundRoutes } from './refunds.js';
import { subscriptionRoutes } from './subscriptions.js';
import { terminalReaderRoutes } from './terminal-readers.js';
import { testHelperRoutes } from './test-helpers.js';
import { webhookEndpointRoutes } from './webhook-endpoints.js';

/** Each resource's routes, registered on one app. */
export function registerRoutes(app: FastifyInstance, sandbox: Sandbox): void {
  customerRoutes(app, sandbox);
  paymentMethodRoutes(app, sandbox);
  paymentIntentRoutes(app, sandbox);
  refundRoutes(app, sandbox);
  checkoutRoutes(app, sandbox);
  checkoutPageRoutes(app, sandbox);
  terminalReaderRoutes(app, sandbox);
  subscriptionRoutes(app, sandbox);
  testHelperRoutes(app, sandbox);
  eventRoutes(app, sandbox);
  webhookEndpointRoutes(app, sandbox);
}
