import type { Subscription } from '../../../domain/subscriptions.js';
import { arg, defineCommand, flag } from '../../command.js';
import { CancelError } from '../../errors.js';
import { subscriptionFields } from './view.js';

export const cancel = defineCommand({
  name: 'cancel',
  description: 'Cancel a subscription now, permanently: no payment is attempted after this (asks first at a TTY)',
  args: { id: arg.required('<id>', 'Subscription id (sub_…)') },
  flags: { yes: flag.bool('-y, --yes', 'Do not ask for confirmation') },
  examples: ['pay subscriptions cancel sub_123', 'pay subscriptions cancel sub_123 --yes --json'],
  fields: subscriptionFields,
  async run(options, f) {
    if (!options.yes && f.io.canPrompt && !(await f.io.confirm(`Cancel subscription ${options.id} permanently?`, false))) {
      throw new CancelError('Nothing canceled.');
    }
    const client = await f.client();
    const subscription = await client.call<Subscription>('subscriptions.cancel', { params: { id: options.id } });
    if (f.io.human) f.io.success(`Canceled subscription ${subscription.id}`);
    f.io.printObject(subscription);
    return subscription;
  },
});
