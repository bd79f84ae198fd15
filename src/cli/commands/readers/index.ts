import { PROCESSORS, type TerminalReader } from '../../../domain/terminal-readers.js';
import { flag, verbs } from '../../command.js';
import { getCommand, listCommand } from '../../verbs.js';
import { activate } from './activate.js';
import { activationCode } from './activation-code.js';
import { present } from './present.js';
import { readerColumns, readerFields } from './view.js';

export const register = verbs(
  listCommand<TerminalReader>('terminal_readers.list', {
    description: 'List the account\'s terminal readers (to learn a terminal_reader_id)',
    columns: readerColumns,
    fields: readerFields,
    query: () => import('../../../domain/terminal-readers.js').then((m) => m.ReaderListQuery),
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
