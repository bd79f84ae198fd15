import type { CheckoutSession } from '../../../domain/checkout.js';
import { arg, defineCommand, flag } from '../../command.js';
import { openInBrowser } from './open.js';
import { checkoutSessionFields } from './view.js';

export const get = defineCommand({
  name: 'get',
  description: 'Show a checkout session (status open, complete or expired)',
  args: { id: arg.id('checkout_session', 'Checkout session id (cs_…)') },
  flags: { open: flag.bool('--open', 'Open its page in your browser') },
  examples: ['pay checkout get cs_123', 'pay checkout get cs_123 --open'],
  fields: checkoutSessionFields,
  async run(options, f) {
    const client = await f.client();
    const session = await client.call<CheckoutSession>('checkout_sessions.get', { params: { id: options.id } });
    f.io.printObject(session);
    if (options.open) await openInBrowser(session.checkout_session_url, f);
  },
});
