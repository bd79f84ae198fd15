import type { FastifyInstance } from 'fastify';
import { ChargeListQuery, PaymentIntentListQuery } from '../../domain/payment-intents.js';
import { apiRoute } from '../pipeline.js';
import type { Sandbox } from '../sandbox.js';
import { getCharge, listCharges } from '../services/charges.js';
import {
  cancelPaymentIntent,
  capturePaymentIntent,
  confirmPaymentIntent,
  createPaymentIntent,
  getPaymentIntent,
  listPaymentIntents,
  updatePaymentIntent,
} from '../services/payment-intents.js';

export function paymentIntentRoutes(app: FastifyInstance, sandbox: Sandbox): void {
  apiRoute(app, sandbox, 'payment_intents.create', {}, (ctx, { body }) => createPaymentIntent(ctx, body));
  apiRoute(app, sandbox, 'payment_intents.get', {}, (ctx, { params }) => getPaymentIntent(ctx, params.id!));
  apiRoute(app, sandbox, 'payment_intents.list', { query: PaymentIntentListQuery }, (ctx, { query }) => listPaymentIntents(ctx, query));
  apiRoute(app, sandbox, 'payment_intents.update', {}, (ctx, { params, body }) => updatePaymentIntent(ctx, params.id!, body));
  apiRoute(app, sandbox, 'payment_intents.confirm', {}, (ctx, { params, body }) => confirmPaymentIntent(ctx, params.id!, body));
  apiRoute(app, sandbox, 'payment_intents.capture', {}, (ctx, { params, body }) => capturePaymentIntent(ctx, params.id!, body));
  apiRoute(app, sandbox, 'payment_intents.cancel', {}, (ctx, { params, body }) => cancelPaymentIntent(ctx, params.id!, body));

  apiRoute(app, sandbox, 'charges.get', {}, (ctx, { params }) => getCharge(ctx, params.id!));
  apiRoute(app, sandbox, 'charges.list', { query: ChargeListQuery }, (ctx, { query }) => listCharges(ctx, query));
}
