import type { FastifyInstance } from 'fastify';
import type { Sandbox } from '../sandbox.js';
import { customerRoutes } from './customers.js';
import { eventRoutes } from './events.js';
import { testHelperRoutes } from './test-helpers.js';
import { webhookEndpointRoutes } from './webhook-endpoints.js';

/** Each resource's routes, registered on one app. */
export function registerRoutes(app: FastifyInstance, sandbox: Sandbox): void {
  customerRoutes(app, sandbox);
  testHelperRoutes(app, sandbox);
  eventRoutes(app, sandbox);
  webhookEndpointRoutes(app, sandbox);
}
