import type { FastifyInstance } from 'fastify';
import { RefundListQuery } from '../../domain/refunds.js';
import { apiRoute } from '../pipeline.js';
import type { Sandbox } from '../sandbox.js';
import { createRefund, getRefund, listRefunds } from '../services/refunds.js';

export function refundRoutes(app: FastifyInstance, sandbox: Sandbox): void {
  apiRoute(app, sandbox, 'refunds.create', {}, (ctx, { body }) => createRefund(ctx, body));
  apiRoute(app, sandbox, 'refunds.get', {}, (ctx, { params }) => getRefund(ctx, params.id!));
  apiRoute(app, sandbox, 'refunds.list', { query: RefundListQuery }, (ctx, { query }) => listRefunds(ctx, query));
}
