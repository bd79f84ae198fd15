import { type Command, Option } from 'commander';
import { REFUND_REASONS, type Refund, RefundCreate } from '../../../domain/refunds.js';
import type { Factory } from '../../factory.js';
import { checkedBody, intArg, keyValueArg, withExamples } from '../../flags.js';

export interface CreateOptions {
  body: RefundCreate;
}

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('create')
    .description('Refund a succeeded payment intent, fully or in part (refunds never exceed what was captured)')
    .option('--payment-intent <pi_id>', 'Payment intent to refund')
    .option('--amount <n>', 'Amount to refund (default: all that is left)', intArg)
    .addOption(new Option('--reason <reason>', 'Why').choices(REFUND_REASONS))
    .option('--metadata <key=value>', 'Metadata pair (repeatable)', keyValueArg)
    .action(async (flags: { paymentIntent?: string; amount?: number; reason?: string; metadata?: Record<string, string> }) => {
      const paymentIntent = flags.paymentIntent ?? (await f.io.ask('--payment-intent', 'Payment intent to refund (pi_…)'));
      const body = checkedBody(RefundCreate, { payment_intent_id: paymentIntent, amount: flags.amount, reason: flags.reason, metadata: flags.metadata });
      await run({ body }, f);
    });
  withExamples(command, 'pay refunds create --payment-intent pi_123', 'pay refunds create --payment-intent pi_123 --amount 500 --reason requested_by_customer');
}

export async function run(options: CreateOptions, f: Factory): Promise<Refund> {
  const client = await f.client();
  const refund = await client.call<Refund>('refunds.create', { body: options.body });
  if (f.io.human) {
    if (refund.status === 'pending') f.io.success(`Refund ${refund.id} is pending on reader ${refund.terminal_reader_id}: confirm it there`);
    else f.io.success(`Refunded ${refund.amount} ${refund.currency} (${refund.id})`);
  }
  f.io.printObject(refund);
  return refund;
}
