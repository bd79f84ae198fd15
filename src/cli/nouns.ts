import type { Command } from 'commander';
import type { Factory } from './factory.js';

export interface NounModule {
  register(command: Command, f: Factory): void;
}

/**
 * Top-level commands and where they live. Only the one being run is imported, so
 * start-up does not pay for the others.
 */
export const NOUNS: ReadonlyArray<{ name: string; summary: string; load: () => Promise<NounModule> }> = [
  { name: 'customers', summary: 'Create, get and list customers', load: () => import('./commands/customers/index.js') },
  { name: 'subscriptions', summary: 'Recurring payments: create, update, pause, resume, cancel, retry, see the schedule; list and batch-retry past_due ones', load: () => import('./commands/subscriptions/index.js') },
  { name: 'api', summary: 'Send a raw request to the service with your profile\'s auth', load: () => import('./commands/api/index.js') },
  { name: 'profiles', summary: 'Manage profiles: service URL, account and API key', load: () => import('./commands/profiles/index.js') },
  { name: 'sandbox', summary: 'Run the local sandbox service and its test clock', load: () => import('./commands/sandbox/index.js') },
];
