import { type CheckoutSession, CheckoutSessionCreate } from '../../../domain/checkout.js';
import { bodyFrom, defineCommand, flag } from '../../command.js';
import { moneyFlags, moneyFrom } from '../../prompts.js';
import { openInBrowser } from './open.js';
import { checkoutSessionFields, pageFlags } from './view.js';

const flags = {
  ...moneyFlags,
  successUrl: flag.string('--success-url <url>', 'Where the customer goes after paying (gets ?session_id=cs_…)', { prompted: true, field: 'success_url' }),
  cancelUrl: flag.string('--cancel-url <url>', 'Where the page\'s cancel link goes', { prompted: true, field: 'cancel_url' }),
  customer: flag.string('--customer <cus_id>', 'Customer paying', { field: 'customer_id' }),
  metadata: flag.keyValue('--metadata <key=value>', 'Metadata pair (repeatable)', { field: 'metadata' }),
  ...pageFlags,
  open: flag.bool('--open', 'Open the page in your browser'),
};

export const create = defineCommand({
  name: 'create',
  description: 'Create a checkout session: a hosted payment page at checkout_session_url',
  flags,
  examples: [
    'pay checkout create --amount 1099 --currency usd --success-url https://example.com/ok --cancel-url https://example.com/cart --open',
    'pay checkout create --amount 1099 --currency usd --description "Espresso beans 250 g" --merchant-name "Corner Roasters" --success-url https://example.com/ok --cancel-url https://example.com/cart',
    'pay checkout create --amount 1099 --currency usd --success-url http://localhost:3000/ok --cancel-url http://localhost:3000/ --json | jq -r .checkout_session_url',
  ],
  fields: checkoutSessionFields,
  async run(options, f) {
    const money = await moneyFrom(options, f.io);
    const successUrl = options.successUrl ?? (await f.io.ask('--success-url', 'Success URL'));
    const cancelUrl = options.cancelUrl ?? (await f.io.ask('--cancel-url', 'Cancel URL'));
    const body = bodyFrom(CheckoutSessionCreate, flags, { ...options, ...money, successUrl, cancelUrl });
    const client = await f.client();
    const session = await client.call<CheckoutSession>('checkout_sessions.create', { body });
    if (f.io.human) f.io.success(`Created checkout session ${session.id}: ${session.checkout_session_url}`);
    f.io.printObject(session);
    if (options.open) await openInBrowser(session.checkout_session_url, f);
    return session;
  },
});
