import type { Customer } from '../../../domain/customers.js';
import { bodyFrom, defineCommand, flag } from '../../command.js';
import { customerFields } from './view.js';

const flags = {
  email: flag.string('--email <email>', 'Email address', { field: 'email' }),
  firstName: flag.string('--first-name <name>', 'First name', { field: 'first_name' }),
  middleName: flag.string('--middle-name <name>', 'Middle name', { field: 'middle_name' }),
  lastName: flag.string('--last-name <name>', 'Last name', { field: 'last_name' }),
  phone: flag.string('--phone <digits>', 'Phone number, digits only', { field: 'phone' }),
  metadata: flag.keyValue('--metadata <key=value>', 'Metadata pair (repeatable)', { field: 'metadata' }),
};

export const create = defineCommand({
  name: 'create',
  description: 'Create a customer',
  flags,
  examples: ['pay customers create --email jenny@example.com --first-name Jenny', 'pay customers create --email a@example.com --metadata plan=gold --json'],
  fields: customerFields,
  async run(options, f) {
    // The schema (and zod) is loaded here, not with the noun: `customers list` needs neither.
    const { CustomerCreate } = await import('../../../domain/customers.js');
    const body = bodyFrom(CustomerCreate, flags, options);
    const client = await f.client();
    const customer = await client.call<Customer>('customers.create', { body });
    if (f.io.human) f.io.success(`Created customer ${customer.id}`);
    f.io.printObject(customer);
    return customer;
  },
});
