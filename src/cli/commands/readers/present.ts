import { type Command, Option } from 'commander';
import { PRESENT_OUTCOMES, READ_METHODS, ReaderPresent } from '../../../domain/terminal-readers.js';
import type { Factory } from '../../factory.js';
import { checkedBody, intArg, withExamples } from '../../flags.js';

const FLAGS: Record<string, string> = { card_number: '--card' };

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('present')
    .description('Sandbox only: present a card on a reader that waits for one (a requires_action intent, or a same-day processor B refund)')
    .argument('<id>', 'Terminal reader id (tmr_…)')
    .addOption(new Option('--outcome <outcome>', `What the card does: ${PRESENT_OUTCOMES.join(', ')} (default approved)`).choices(PRESENT_OUTCOMES))
    .option('--card <number>', 'Present this test card instead: its outcome applies (e.g. 3566002020360505, jcb: processor B only)')
    .option('--tip-amount <n>', 'Tip the customer adds on the reader, in minor units (amount_received = amount + tip)', intArg)
    .option('--available-amount <n>', 'What the card can cover: below the total, only this is captured (partial authorization)', intArg)
    .addOption(new Option('--method <method>', 'How the card is read (default tap)').choices(READ_METHODS))
    .action(async (id: string, flags: { outcome?: string; card?: string; tipAmount?: number; availableAmount?: number; method?: string }) => {
      const body = checkedBody(
        ReaderPresent,
        { outcome: flags.outcome, card_number: flags.card, tip_amount: flags.tipAmount, available_amount: flags.availableAmount, method: flags.method },
        (param) => FLAGS[param] ?? `--${param}`,
      );
      await run({ id, body }, f);
    });
  withExamples(
    command,
    'pay readers present tmr_123                       # approved',
    'pay readers present tmr_123 --tip-amount 200',
    'pay readers present tmr_123 --available-amount 700   # partial authorization',
    'pay readers present tmr_123 --outcome insufficient_funds',
    'pay readers present tmr_123 --card 3566002020360505',
  );
}

export async function run(options: { id: string; body: ReaderPresent }, f: Factory): Promise<void> {
  const client = await f.client();
  const result = await client.call<{ id: string; object: string; status: string }>('test_helpers.reader_present', { params: { id: options.id }, body: options.body });
  if (f.io.human) f.io.success(`Card presented on ${options.id}: ${result.object} ${result.id} is ${result.status}`);
  f.io.printObject(result);
}
