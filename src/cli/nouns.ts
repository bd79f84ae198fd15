import type { Command } from 'commander';
import type { Factory } from './factory.js';

export interface NounModule {
  register(command: Command, f: Factory): void;
}

const CORE = 'Core resources:';
const EVENTS = 'Events and webhooks:';
const IN_PERSON = 'In person:';
const SANDBOX = 'Sandbox:';
const SETUP = 'Setup:';

/**
 * Top-level commands and where they live, in the groups and order top-level help shows.
 * Only the one being run is imported, so start-up does not pay for the others.
 */
export const NOUNS: ReadonlyArray<{ name: string; summary: string; group: string; load: () => Promise<NounModule> }> = [
  { name: 'customers', summary: 'Create, get and list customers', group: CORE, load: () => import('./commands/customers/index.js') },
  { name: 'payment-methods', summary: 'Create, attach, get and list payment methods (cards, cards on a reader)', group: CORE, load: () => import('./commands/payment-methods/index.js') },
  { name: 'intents', summary: 'Payment intents: create, confirm, capture, cancel, update, get, list', group: CORE, load: () => import('./commands/intents/index.js') },
  { name: 'charges', summary: 'Get and list charges (one per payment attempt)', group: CORE, load: () => import('./commands/charges/index.js') },
  { name: 'refunds', summary: 'Create, get and list refunds', group: CORE, load: () => import('./commands/refunds/index.js') },
  { name: 'checkout', summary: 'Checkout sessions: a hosted payment page', group: CORE, load: () => import('./commands/checkout/index.js') },
  { name: 'payment-links', summary: 'Payment links: a reusable URL to the hosted payment page', group: CORE, load: () => import('./commands/payment-links/index.js') },
  { name: 'subscriptions', summary: 'Recurring payments: create, update, pause, resume, cancel, retry, see the schedule; list and batch-retry past_due ones', group: CORE, load: () => import('./commands/subscriptions/index.js') },
  { name: 'events', summary: 'List, inspect, resend and tail events', group: EVENTS, load: () => import('./commands/events/index.js') },
  { name: 'trigger', summary: 'Run a named flow (a payment, a refund, a subscription…) to cause its events', group: EVENTS, load: () => import('./commands/trigger/index.js') },
  { name: 'webhooks', summary: 'Forward events to a local app (listen) and manage webhook endpoints', group: EVENTS, load: () => import('./commands/webhooks/index.js') },
  { name: 'readers', summary: 'Terminal readers: list, get, activate; present a card in the sandbox', group: IN_PERSON, load: () => import('./commands/readers/index.js') },
  { name: 'terminal', summary: 'Simulate a terminal reader: receive in-person payments and answer as the customer', group: IN_PERSON, load: () => import('./commands/terminal/index.js') },
  { name: 'sandbox', summary: 'Run the local sandbox service and its test clock', group: SANDBOX, load: () => import('./commands/sandbox/index.js') },
  { name: 'profiles', summary: 'Manage profiles: service URL, account and API key', group: SETUP, load: () => import('./commands/profiles/index.js') },
  { name: 'api', summary: 'Send a raw request to the service with your profile\'s auth', group: SETUP, load: () => import('./commands/api/index.js') },
  { name: 'completion', summary: 'Print the shell completion script for bash, zsh or fish', group: SETUP, load: () => import('./commands/completion/index.js') },
];
