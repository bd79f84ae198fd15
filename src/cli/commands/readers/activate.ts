import { ALL_READER_MODELS, PROCESSORS, READER_MODELS, ReaderActivate, SELF_OWNED_PROCESSOR, type TerminalReader } from '../../../domain/terminal-readers.js';
import { ApiError } from '../../../domain/errors.js';
import { bodyFrom, defineCommand, flag } from '../../command.js';
import { withHint } from '../../errors.js';
import { readerFields } from './view.js';

const flags = {
  activationCode: flag.string('--activation-code <code>', 'Activation code from pay readers activation-code', { field: 'activation_code', prompted: true }),
  serial: flag.string('--serial <serial>', 'Serial number printed on the reader', { field: 'serial_number', conflicts: ['serialNumber'] }),
  serialNumber: flag.string('--serial-number <serial>', 'Same as --serial', { field: 'serial_number' }),
  processor: flag.choice('--processor <p>', 'Processor of the reader (self-owned readers are processor A)', PROCESSORS, { default: SELF_OWNED_PROCESSOR, field: 'processor' }),
  model: flag.choice('--model <model>', 'Reader model', ALL_READER_MODELS, { field: 'model' }),
  label: flag.string('--label <text>', 'A name for the reader', { field: 'label' }),
};

export const activate = defineCommand({
  name: 'activate',
  description: 'Activate a self-owned developer reader (a processor A model) on this account with an activation code',
  flags,
  examples: ['pay readers activate --activation-code ABCD-1234 --serial SN-0001 --processor A --model a-countertop'],
  fields: readerFields,
  async run(options, f) {
    const activationCode = options.activationCode ?? (await f.io.ask('--activation-code', 'Activation code'));
    const serial = options.serial ?? (options.serialNumber === undefined ? await f.io.ask('--serial', 'Serial number') : undefined);
    // Only the models that can be chosen: a self-owned reader's (a --processor B is refused below, naming it).
    const model = options.model ?? (await f.io.choose('--model', 'Model', READER_MODELS[SELF_OWNED_PROCESSOR].map((m) => ({ name: m, value: m }))));
    const body = bodyFrom(ReaderActivate, flags, { ...options, activationCode, serial, model });
    const client = await f.client();
    const reader = await client.call<TerminalReader>('terminal_readers.activate', { body }).catch((error: unknown) => {
      throw withActivationCodeHint(error);
    });
    if (f.io.human) f.io.success(`Activated reader ${reader.id} (${reader.model}, serial ${reader.serial_number})`);
    f.io.printObject(reader);
  },
});

/**
 * An unknown, used or expired code: the service says so in its own words (they serve any
 * client); the CLI's way to a new code is a command. Activating here or by connecting a
 * simulator with --activation-code, the same refusal gets the same hint.
 */
export function withActivationCodeHint(error: unknown): unknown {
  return error instanceof ApiError && error.status === 400 && error.param === 'activation_code' ? withHint(error, 'Get a new code with: pay readers activation-code') : error;
}
