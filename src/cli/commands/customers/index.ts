import type { Customer } from '../../../domain/customers.js';
import { flag, verbs } from '../../command.js';
import { getCommand, listCommand } from '../../verbs.js';
import { create } from './create.js';
import { customerColumns, customerFields } from './view.js';

export const register = verbs(
  create,
  getCommand<Customer>('customers.get', { description: 'Show a customer', id: 'Customer id (cus_…)', fields: customerFields, examples: ['pay customers get cus_123', 'pay customers get cus_123 --json'] }),
  listCommand<Customer>('customers.list', {
    description: 'List customers, newest first',
    columns: customerColumns,
    fields: customerFields,
    query: () => import('../../../domain/customers.js').then((m) => m.CustomerListQuery),
    filters: { email: flag.string('--email <email>', 'Only customers with this email', { field: 'email' }) },
    examples: ['pay customers list', 'pay customers list --limit 50 --json'],
  }),
);
