import type { FastifyInstance } from 'fastify';
import { CheckoutSessionListQuery, PaymentLinkListQuery } from '../../domain/checkout.js';
import { apiRoute } from '../pipeline.js';
import type { Sandbox } from '../sandbox.js';
import {
  checkoutExpiry,
  createCheckoutSession,
  createPaymentLink,
  getCheckoutSession,
  getPaymentLink,
  listCheckoutSessions,
  listPaymentLinks,
} from '../services/checkout.js';

export function checkoutRoutes(app: FastifyInstance, sandbox: Sandbox): void {
  sandbox.clock.register(checkoutExpiry);
  apiRoute(app, sandbox, 'checkout_sessions.create', {}, (ctx, { body, origin }) => createCheckoutSession(ctx, body, origin));
  apiRoute(app, sandbox, 'checkout_sessions.get', {}, (ctx, { params }) => getCheckoutSession(ctx, params.id!));
  apiRoute(app, sandbox, 'checkout_sessions.list', { query: CheckoutSessionListQuery }, (ctx, { query }) => listCheckoutSessions(ctx, query));

  apiRoute(app, sandbox, 'payment_links.create', {}, (ctx, { body, origin }) => createPaymentLink(ctx, body, origin));
  apiRoute(app, sandbox, 'payment_links.get', {}, (ctx, { params }) => getPaymentLink(ctx, params.id!));
  apiRoute(app, sandbox, 'payment_links.list', { query: PaymentLinkListQuery }, (ctx, { query }) => listPaymentLinks(ctx, query));
}
