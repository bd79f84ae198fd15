import type { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { withExamples } from '../../flags.js';
import { changeState } from './view.js';

export interface PauseOptions {
  id: string;
}

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('pause')
    .description('Pause an active subscription: no payment is attempted until it is resumed')
    .argument('<id>', 'Subscription id (sub_…)')
    .action(async (id: string) => {
      await run({ id }, f);
    });
  withExamples(command, 'pay subscriptions pause sub_123');
}

export const run = (options: PauseOptions, f: Factory) => changeState(f, 'subscriptions.pause', options.id, 'Paused');
