import type { Command } from 'commander';
import { type PaymentLink, PaymentLinkCreate } from '../../../domain/checkout.js';
import type { Factory } from '../../factory.js';
import { moneyFrom } from '../../prompts.js';
import { checkedBody, keyValueArg, moneyOptions, withExamples } from '../../flags.js';

export function define(noun: Command, f: Factory): void {
  const command = moneyOptions(noun.command('create'))
    .description('Create a payment link: a reusable URL to the hosted payment page, each visit its own checkout session')
    .option('--success-url <url>', 'Where customers go after paying (default: a receipt page)')
    .option('--cancel-url <url>', 'Where the page\'s cancel link goes (default: none)')
    .option('--metadata <key=value>', 'Metadata pair (repeatable)', keyValueArg)
    .option('--description <text>', 'What is being paid for, shown on the page')
    .option('--merchant-name <name>', 'Your name as the customer knows it, shown on the page')
    .action(async (flags: { amount?: number; currency?: string; successUrl?: string; cancelUrl?: string; metadata?: Record<string, string>; description?: string; merchantName?: string }) => {
      const { amount, currency } = await moneyFrom(flags, f.io);
      const body = checkedBody(PaymentLinkCreate, { amount, currency, success_url: flags.successUrl, cancel_url: flags.cancelUrl, metadata: flags.metadata, description: flags.description, merchant_name: flags.merchantName });
      await run({ body }, f);
    });
  withExamples(command, 'pay payment-links create --amount 2500 --currency usd', 'pay payment-links create --amount 2500 --currency usd --json | jq -r .url');
}

export async function run(options: { body: PaymentLinkCreate }, f: Factory): Promise<PaymentLink> {
  const client = await f.client();
  const link = await client.call<PaymentLink>('payment_links.create', { body: options.body });
  if (f.io.human) f.io.success(`Created payment link ${link.id}: ${link.url}`);
  f.io.printObject(link);
  return link;
}
