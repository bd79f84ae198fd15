import type { FastifyInstance } from 'fastify';
import { CustomerListQuery } from '../../domain/customers.js';
import { apiRoute } from '../pipeline.js';
import type { Sandbox } from '../sandbox.js';
import { createCustomer, getCustomer, listCustomers } from '../services/customers.js';

export function customerRoutes(app: FastifyInstance, sandbox: Sandbox): void {
  apiRoute(app, sandbox, 'customers.create', {}, (ctx, { body }) => createCustomer(ctx, body));
  apiRoute(app, sandbox, 'customers.get', {}, (ctx, { params }) => getCustomer(ctx, params.id!));
  apiRoute(app, sandbox, 'customers.list', { query: CustomerListQuery }, (ctx, { query }) => listCustomers(ctx, query));
}
