import type { Customer } from '../../../domain/customers.js';
import { fieldsOf } from '../../command.js';
import type { Column } from '../../io/io.js';

/** How customers are shown in lists. */
export const customerColumns: Column<Customer>[] = [
  { header: 'ID', value: (c) => c.id },
  { header: 'EMAIL', value: (c) => c.email },
  { header: 'NAME', value: (c) => [c.first_name, c.middle_name, c.last_name].filter(Boolean).join(' ') },
  { header: 'CREATED', value: (c) => c.created },
];

export const customerFields = fieldsOf<Customer>()('id', 'object', 'created', 'livemode', 'email', 'first_name', 'middle_name', 'last_name', 'phone', 'metadata');
