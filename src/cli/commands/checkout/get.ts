import type { Command } from 'commander';
import type { CheckoutSession } from '../../../domain/checkout.js';
import type { Factory } from '../../factory.js';
import { withExamples } from '../../flags.js';
import { openInBrowser } from './open.js';

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('get')
    .description('Show a checkout session (status open, complete or expired)')
    .argument('<id>', 'Checkout session id (cs_…)')
    .option('--open', 'Open its page in your browser', false)
    .action(async (id: string, flags: { open: boolean }) => run({ id, open: flags.open }, f));
  withExamples(command, 'pay checkout get cs_123', 'pay checkout get cs_123 --open');
}

export async function run(options: { id: string; open: boolean }, f: Factory): Promise<void> {
  const client = await f.client();
  const session = await client.call<CheckoutSession>('checkout_sessions.get', { params: { id: options.id } });
  f.io.printObject(session);
  if (options.open) await openInBrowser(session.checkout_session_url, f);
}
