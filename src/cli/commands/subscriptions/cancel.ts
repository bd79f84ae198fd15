import type { Command } from 'commander';
import type { Subscription } from '../../../domain/subscriptions.js';
import { CancelError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { withExamples } from '../../flags.js';

export interface CancelOptions {
  id: string;
  yes: boolean;
}

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('cancel')
    .description('Cancel a subscription now, permanently: no payment is attempted after this (asks first at a TTY)')
    .argument('<id>', 'Subscription id (sub_…)')
    .option('-y, --yes', 'Do not ask for confirmation', false)
    .action(async (id: string, flags: { yes: boolean }) => {
      await run({ id, yes: flags.yes }, f);
    });
  withExamples(command, 'pay subscriptions cancel sub_123', 'pay subscriptions cancel sub_123 --yes --json');
}

export async function run(options: CancelOptions, f: Factory): Promise<Subscription> {
  if (!options.yes && f.io.canPrompt && !(await f.io.confirm(`Cancel subscription ${options.id} permanently?`, false))) {
    throw new CancelError('Nothing canceled.');
  }
  const client = await f.client();
  const subscription = await client.call<Subscription>('subscriptions.cancel', { params: { id: options.id } });
  if (f.io.human) f.io.success(`Canceled subscription ${subscription.id}`);
  f.io.printObject(subscription);
  return subscription;
}
