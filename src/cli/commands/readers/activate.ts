import { type Command, Option } from 'commander';
import { ALL_READER_MODELS, PROCESSORS, ReaderActivate, type TerminalReader } from '../../../domain/terminal-readers.js';
import type { Factory } from '../../factory.js';
import { checkedBody, flagOf, withExamples } from '../../flags.js';

const FLAGS: Record<string, string> = { serial_number: '--serial' };

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('activate')
    .description('Activate a self-owned developer reader (a processor A model) on this account with an activation code')
    .option('--activation-code <code>', 'Activation code from pay readers activation-code')
    .option('--serial <serial>', 'Serial number printed on the reader')
    .addOption(new Option('--processor <p>', 'Processor of the reader (self-owned readers are processor A)').choices(PROCESSORS).default('A'))
    .addOption(new Option('--model <model>', 'Reader model').choices(ALL_READER_MODELS))
    .option('--label <text>', 'A name for the reader')
    .action(async (flags: { activationCode?: string; serial?: string; processor: string; model?: string; label?: string }) => {
      const code = flags.activationCode ?? (await f.io.ask('--activation-code', 'Activation code'));
      const serial = flags.serial ?? (await f.io.ask('--serial', 'Serial number'));
      const model = flags.model ?? (await f.io.choose('--model', 'Model', ALL_READER_MODELS.map((m) => ({ name: m, value: m }))));
      const body = checkedBody(
        ReaderActivate,
        { activation_code: code, serial_number: serial, processor: flags.processor, model, label: flags.label },
        (param) => FLAGS[param] ?? flagOf(param),
      );
      await run(body, f);
    });
  withExamples(command, 'pay readers activate --activation-code ABCD-1234 --serial SN-0001 --processor A --model a-countertop');
}

export async function run(body: ReaderActivate, f: Factory): Promise<void> {
  const client = await f.client();
  const reader = await client.call<TerminalReader>('terminal_readers.activate', { body });
  if (f.io.human) f.io.success(`Activated reader ${reader.id} (${reader.model}, serial ${reader.serial_number})`);
  f.io.printObject(reader);
}
