import type { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { withExamples } from '../../flags.js';
import { changeState } from './view.js';

export interface RetryOptions {
  id: string;
}

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('retry')
    .description('Retry the payment of a past_due subscription with its current payment method (exit 6 if declined)')
    .argument('<id>', 'Subscription id (sub_…)')
    .action(async (id: string) => {
      await run({ id }, f);
    });
  withExamples(
    command,
    'pay subscriptions update sub_123 --payment-method pm_456 && pay subscriptions retry sub_123',
  );
}

export const run = (options: RetryOptions, f: Factory) => changeState(f, 'subscriptions.retry', options.id, 'Retried');
