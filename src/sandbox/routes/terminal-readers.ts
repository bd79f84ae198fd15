import type { FastifyInstance } from 'fastify';
import { ReaderListQuery } from '../../domain/terminal-readers.js';
import { apiRoute } from '../pipeline.js';
import type { Sandbox } from '../sandbox.js';
import { activateReader, createActivationCode, getReader, listReaders } from '../services/terminal-readers.js';

export function terminalReaderRoutes(app: FastifyInstance, sandbox: Sandbox): void {
  apiRoute(app, sandbox, 'terminal_readers.list', { query: ReaderListQuery }, (ctx, { query }) => listReaders(ctx, query));
  apiRoute(app, sandbox, 'terminal_readers.activation_code', {}, (ctx) => createActivationCode(ctx));
  apiRoute(app, sandbox, 'terminal_readers.activate', {}, (ctx, { body }) => activateReader(ctx, body));
  apiRoute(app, sandbox, 'terminal_readers.get', {}, (ctx, { params }) => getReader(ctx, params.id!));
}
