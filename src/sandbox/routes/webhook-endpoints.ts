import type { FastifyInstance } from 'fastify';
import { WebhookEndpointListQuery } from '../../domain/webhook-endpoints.js';
import { apiRoute } from '../pipeline.js';
import type { Sandbox } from '../sandbox.js';
import { createWebhookEndpoint, deleteWebhookEndpoint, getWebhookEndpoint, listWebhookEndpoints } from '../services/webhook-endpoints.js';

export function webhookEndpointRoutes(app: FastifyInstance, sandbox: Sandbox): void {
  apiRoute(app, sandbox, 'webhook_endpoints.create', { shownOnce: 'secret' }, (ctx, { body }) => createWebhookEndpoint(ctx, body));
  apiRoute(app, sandbox, 'webhook_endpoints.get', {}, (ctx, { params }) => getWebhookEndpoint(ctx, params.id!));
  apiRoute(app, sandbox, 'webhook_endpoints.list', { query: WebhookEndpointListQuery }, (ctx, { query }) => listWebhookEndpoints(ctx, query));
  apiRoute(app, sandbox, 'webhook_endpoints.delete', {}, (ctx, { params }) => deleteWebhookEndpoint(ctx, params.id!));
}
