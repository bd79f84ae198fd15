import type { FastifyInstance } from 'fastify';
import type { Sandbox } from '../sandbox.js';
import { customerRoutes } from './customers.js';
import { subscriptionRoutes } from './subscriptions.js';
import { testHelperRoutes } from './test-helpers.js';

/** Each resource's routes, registered on one app. */
export function registerRoutes(app: FastifyInstance, sandbox: Sandbox): void {
  customerRoutes(app, sandbox);
  subscriptionRoutes(app, sandbox);
  testHelperRoutes(app, sandbox);
}
