import type { Command } from 'commander';
import type { Factory } from '../../factory.js';
import * as endpointsCreate from './endpoints-create.js';
import * as endpointsDelete from './endpoints-delete.js';
import * as endpointsGet from './endpoints-get.js';
import * as endpointsList from './endpoints-list.js';
import * as listen from './listen.js';
import * as rotateSecret from './rotate-secret.js';

export function register(noun: Command, f: Factory): void {
  listen.define(noun, f);
  rotateSecret.define(noun, f);
  const endpoints = noun.command('endpoints').description('Webhook endpoints: URLs the service POSTs events to');
  endpointsCreate.define(endpoints, f);
  endpointsList.define(endpoints, f);
  endpointsGet.define(endpoints, f);
  endpointsDelete.define(endpoints, f);
}
