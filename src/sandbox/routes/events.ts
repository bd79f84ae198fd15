import type { FastifyInstance } from 'fastify';
import { EventListQuery } from '../../domain/events.js';
import { apiRoute } from '../pipeline.js';
import type { Sandbox } from '../sandbox.js';
import { getEvent, listEvents, resendEvent } from '../services/events.js';

export function eventRoutes(app: FastifyInstance, sandbox: Sandbox): void {
  apiRoute(app, sandbox, 'events.list', { query: EventListQuery }, (ctx, { query }) => listEvents(ctx, query));
  apiRoute(app, sandbox, 'events.get', {}, (ctx, { params }) => getEvent(ctx, params.id!));
  apiRoute(app, sandbox, 'events.resend', {}, (ctx, { params, body }) => resendEvent(ctx, params.id!, body));
}
