import type { Command } from 'commander';
import { type CheckoutSession, CheckoutSessionCreate } from '../../../domain/checkout.js';
import type { Factory } from '../../factory.js';
import { moneyFrom } from '../../prompts.js';
import { checkedBody, keyValueArg, moneyOptions, withExamples } from '../../flags.js';
import { openInBrowser } from './open.js';

export interface CreateOptions {
  body: CheckoutSessionCreate;
  open: boolean;
}

export function define(noun: Command, f: Factory): void {
  const command = moneyOptions(noun.command('create'))
    .description('Create a checkout session: a hosted payment page at checkout_session_url')
    .option('--success-url <url>', 'Where the customer goes after paying (gets ?session_id=cs_…)')
    .option('--cancel-url <url>', 'Where the page\'s cancel link goes')
    .option('--customer <cus_id>', 'Customer paying')
    .option('--metadata <key=value>', 'Metadata pair (repeatable)', keyValueArg)
    .option('--description <text>', 'What is being paid for, shown on the page')
    .option('--merchant-name <name>', 'Your name as the customer knows it, shown on the page')
    .option('--open', 'Open the page in your browser', false)
    .action(async (flags: { amount?: number; currency?: string; successUrl?: string; cancelUrl?: string; customer?: string; metadata?: Record<string, string>; description?: string; merchantName?: string; open: boolean }) => {
      const { amount, currency } = await moneyFrom(flags, f.io);
      const successUrl = flags.successUrl ?? (await f.io.ask('--success-url', 'Success URL'));
      const cancelUrl = flags.cancelUrl ?? (await f.io.ask('--cancel-url', 'Cancel URL'));
      const body = checkedBody(CheckoutSessionCreate, { amount, currency, success_url: successUrl, cancel_url: cancelUrl, customer_id: flags.customer, metadata: flags.metadata, description: flags.description, merchant_name: flags.merchantName });
      await run({ body, open: flags.open }, f);
    });
  withExamples(
    command,
    'pay checkout create --amount 1099 --currency usd --success-url https://example.com/ok --cancel-url https://example.com/cart --open',
    'pay checkout create --amount 1099 --currency usd --description "Espresso beans 250 g" --merchant-name "Corner Roasters" --success-url https://example.com/ok --cancel-url https://example.com/cart',
    'pay checkout create --amount 1099 --currency usd --success-url http://localhost:3000/ok --cancel-url http://localhost:3000/ --json | jq -r .checkout_session_url',
  );
}

export async function run(options: CreateOptions, f: Factory): Promise<CheckoutSession> {
  const client = await f.client();
  const session = await client.call<CheckoutSession>('checkout_sessions.create', { body: options.body });
  if (f.io.human) f.io.success(`Created checkout session ${session.id}: ${session.checkout_session_url}`);
  f.io.printObject(session);
  if (options.open) await openInBrowser(session.checkout_session_url, f);
  return session;
}
