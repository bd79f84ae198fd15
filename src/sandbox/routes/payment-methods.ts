import type { FastifyInstance } from 'fastify';
import { PaymentMethodListQuery } from '../../domain/payment-methods.js';
import { apiRoute } from '../pipeline.js';
import type { Sandbox } from '../sandbox.js';
import { attachPaymentMethod, createPaymentMethod, getPaymentMethod, listPaymentMethods } from '../services/payment-methods.js';

export function paymentMethodRoutes(app: FastifyInstance, sandbox: Sandbox): void {
  apiRoute(app, sandbox, 'payment_methods.create', {}, (ctx, { body }) => createPaymentMethod(ctx, body));
  apiRoute(app, sandbox, 'payment_methods.get', {}, (ctx, { params }) => getPaymentMethod(ctx, params.id!));
  apiRoute(app, sandbox, 'payment_methods.list', { query: PaymentMethodListQuery }, (ctx, { query }) => listPaymentMethods(ctx, query));
  apiRoute(app, sandbox, 'payment_methods.attach', {}, (ctx, { params, body }) => attachPaymentMethod(ctx, params.id!, body.customer_id));
}
