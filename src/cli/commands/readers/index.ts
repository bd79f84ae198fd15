import { type ActivationCode, PROCESSORS, ReaderListQuery, type TerminalReader } from '../../../domain/terminal-readers.js';
import { defineCommand, fieldsOf, flag, verbs } from '../../command.js';
import { getCommand, listCommand } from '../../verbs.js';
import { activate } from './activate.js';
import { present } from './present.js';
import { readerColumns, readerFields } from './view.js';

const activationCode = defineCommand({
  name: 'activation-code',
  description: 'Get an activation code for a self-owned processor A developer reader (what support hands out)',
  examples: ['pay readers activation-code', 'pay readers activation-code --json | jq -r .code'],
  fields: fieldsOf<ActivationCode>()('id', 'object', 'created', 'livemode', 'code', 'expires_at', 'used_by'),
  async run(_, f) {
    const client = await f.client();
    const code = await client.call<ActivationCode>('terminal_readers.activation_code');
    if (f.io.human) f.io.success(`Activation code ${code.code}, valid until ${code.expires_at}. Enter it on the reader, or: pay readers activate --activation-code ${code.code} --serial …`);
    f.io.printObject(code);
  },
});

export const register = verbs(
  listCommand<TerminalReader>('terminal_readers.list', {
    description: 'List the account\'s terminal readers (to learn a terminal_reader_id)',
    columns: readerColumns,
    fields: readerFields,
    query: ReaderListQuery,
    filters: { processor: flag.choice('--processor <p>', 'Only readers of this processor', PROCESSORS, { field: 'processor' }) },
    examples: ['pay readers list', 'pay readers list --processor B --json'],
  }),
  getCommand<TerminalReader>('terminal_readers.get', {
    description: 'Show a terminal reader (status online while it is connected)',
    id: 'Terminal reader id (tmr_…)',
    fields: readerFields,
    examples: ['pay readers get tmr_123'],
  }),
  activationCode,
  activate,
  present,
);
