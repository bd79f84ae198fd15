import type { Subscription } from '../../../domain/subscriptions.js';
import { flag, verbs } from '../../command.js';
import { getCommand, listCommand, stateCommand } from '../../verbs.js';
import { create } from './create.js';
import { pastDue } from './past-due.js';
import { retryPastDue } from './retry-past-due.js';
import { schedule } from './schedule.js';
import { update } from './update.js';
import { showChanged, subscriptionColumns, subscriptionFields } from './view.js';

const ID = 'Subscription id (sub_…)';

export const register = verbs(
  create,
  getCommand<Subscription>('subscriptions.get', { description: 'Show a subscription', id: ID, fields: subscriptionFields, examples: ['pay subscriptions get sub_123', 'pay subscriptions get sub_123 --json'] }),
  listCommand<Subscription>('subscriptions.list', {
    description: 'List subscriptions, newest first',
    columns: subscriptionColumns,
    fields: subscriptionFields,
    query: () => import('../../../domain/subscriptions.js').then((m) => m.SubscriptionListQuery),
    filters: {
      status: flag.string('--status <status>', 'Only this status: pending, active, past_due, paused or canceled', { field: 'status' }),
      customer: flag.string('--customer <id>', 'Only this customer\'s (cus_…)', { field: 'customer_id' }),
    },
    examples: ['pay subscriptions list --status past_due', 'pay subscriptions list --customer cus_123 --json'],
  }),
  update,
  stateCommand('pause', 'subscriptions.pause', {
    description: 'Pause an active subscription: no payment is attempted until it is resumed',
    id: ID,
    fields: subscriptionFields,
    show: showChanged('Paused'),
    examples: ['pay subscriptions pause sub_123'],
  }),
  stateCommand('resume', 'subscriptions.resume', {
    description: 'Resume a paused subscription; due dates missed while paused are skipped, not charged',
    id: ID,
    fields: subscriptionFields,
    show: showChanged('Resumed'),
    examples: ['pay subscriptions resume sub_123'],
  }),
  stateCommand('cancel', 'subscriptions.cancel', {
    description: 'Cancel a subscription now, permanently: no payment is attempted after this (asks first at a TTY; --yes in scripts)',
    id: ID,
    fields: subscriptionFields,
    show: showChanged('Canceled'),
    destructive: { what: 'canceling a subscription stops its payments for good', question: (id) => `Cancel subscription ${id} permanently?` },
    examples: ['pay subscriptions cancel sub_123', 'pay subscriptions cancel sub_123 --yes --json'],
  }),
  stateCommand('retry', 'subscriptions.retry', {
    description: 'Retry the payment of a past_due subscription with its current payment method (exit 6 if declined; exit 5 if its failed payment was since paid directly)',
    id: ID,
    fields: subscriptionFields,
    show: showChanged('Retried'),
    examples: ['pay subscriptions update sub_123 --payment-method pm_456 && pay subscriptions retry sub_123'],
  }),
  schedule,
  pastDue,
  retryPastDue,
);
