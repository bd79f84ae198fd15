import { type PaymentLink, PaymentLinkCreate } from '../../../domain/checkout.js';
import { bodyFrom, defineCommand, flag } from '../../command.js';
import { moneyFlags, moneyFrom } from '../../prompts.js';
import { pageFlags } from '../checkout/view.js';
import { paymentLinkFields } from './view.js';

const flags = {
  ...moneyFlags,
  successUrl: flag.string('--success-url <url>', 'Where customers go after paying (default: a receipt page)', { field: 'success_url' }),
  cancelUrl: flag.string('--cancel-url <url>', 'Where the page\'s cancel link goes (default: none)', { field: 'cancel_url' }),
  metadata: flag.keyValue('--metadata <key=value>', 'Metadata pair (repeatable)', { field: 'metadata' }),
  ...pageFlags,
};

export const create = defineCommand({
  name: 'create',
  description: 'Create a payment link: a reusable URL to the hosted payment page, each visit its own checkout session',
  flags,
  examples: ['pay payment-links create --amount 2500 --currency usd', 'pay payment-links create --amount 2500 --currency usd --description "Espresso beans 250 g" --merchant-name "Corner Roasters"', 'pay payment-links create --amount 2500 --currency usd --json | jq -r .url'],
  fields: paymentLinkFields,
  async run(options, f) {
    const body = bodyFrom(PaymentLinkCreate, flags, { ...options, ...(await moneyFrom(options, f.io)) });
    const client = await f.client();
    const link = await client.call<PaymentLink>('payment_links.create', { body });
    if (f.io.human) f.io.success(`Created payment link ${link.id}: ${link.url}`);
    f.io.printObject(link);
    return link;
  },
});
