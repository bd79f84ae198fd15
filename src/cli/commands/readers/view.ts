import type { TerminalReader } from '../../../domain/terminal-readers.js';
import { fieldsOf } from '../../command.js';
import type { Column } from '../../io/io.js';

export const readerColumns: Column<TerminalReader>[] = [
  { header: 'ID', value: (r) => r.id },
  { header: 'STATUS', value: (r) => r.status },
  { header: 'PROCESSOR', value: (r) => r.processor },
  { header: 'MODEL', value: (r) => r.model },
  { header: 'SERIAL', value: (r) => r.serial_number },
  { header: 'TYPE', value: (r) => r.device_type },
  { header: 'LABEL', value: (r) => r.label },
];

export const readerFields = fieldsOf<TerminalReader>()('id', 'object', 'created', 'livemode', 'serial_number', 'processor', 'model', 'label', 'device_type', 'status', 'activated_at', 'action');
