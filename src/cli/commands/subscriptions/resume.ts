import type { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { withExamples } from '../../flags.js';
import { changeState } from './view.js';

export interface ResumeOptions {
  id: string;
}

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('resume')
    .description('Resume a paused subscription; due dates missed while paused are skipped, not charged')
    .argument('<id>', 'Subscription id (sub_…)')
    .action(async (id: string) => {
      await run({ id }, f);
    });
  withExamples(command, 'pay subscriptions resume sub_123');
}

export const run = (options: ResumeOptions, f: Factory) => changeState(f, 'subscriptions.resume', options.id, 'Resumed');
