import type { FastifyInstance } from 'fastify';
import { SubscriptionListQuery } from '../../domain/subscriptions.js';
import { apiRoute } from '../pipeline.js';
import type { Sandbox } from '../sandbox.js';
import {
  cancelSubscription,
  createSubscription,
  getSubscription,
  listSubscriptions,
  pauseSubscription,
  resumeSubscription,
  retrySubscription,
  updateSubscription,
} from '../services/subscriptions.js';

export function subscriptionRoutes(app: FastifyInstance, sandbox: Sandbox): void {
  apiRoute(app, sandbox, 'subscriptions.create', {}, (ctx, { body }) => createSubscription(ctx, body));
  apiRoute(app, sandbox, 'subscriptions.get', {}, (ctx, { params }) => getSubscription(ctx, params.id!));
  apiRoute(app, sandbox, 'subscriptions.list', { query: SubscriptionListQuery }, (ctx, { query }) => listSubscriptions(ctx, query));
  apiRoute(app, sandbox, 'subscriptions.update', {}, (ctx, { params, body }) => updateSubscription(ctx, params.id!, body));
  apiRoute(app, sandbox, 'subscriptions.pause', {}, (ctx, { params }) => pauseSubscription(ctx, params.id!));
  apiRoute(app, sandbox, 'subscriptions.resume', {}, (ctx, { params }) => resumeSubscription(ctx, params.id!));
  apiRoute(app, sandbox, 'subscriptions.cancel', {}, (ctx, { params }) => cancelSubscription(ctx, params.id!));
  apiRoute(app, sandbox, 'subscriptions.retry', {}, (ctx, { params }) => retrySubscription(ctx, params.id!));
}
