import type { Command } from 'commander';
import { CustomerCreate, type Customer } from '../../../domain/customers.js';
import type { Factory } from '../../factory.js';
import { checkedBody, keyValueArg, withExamples } from '../../flags.js';

export interface CreateOptions {
  body: CustomerCreate;
}

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('create')
    .description('Create a customer')
    .option('--email <email>', 'Email address')
    .option('--first-name <name>', 'First name')
    .option('--middle-name <name>', 'Middle name')
    .option('--last-name <name>', 'Last name')
    .option('--phone <digits>', 'Phone number, digits only')
    .option('--metadata <key=value>', 'Metadata pair (repeatable)', keyValueArg)
    .action(async (flags: Record<string, unknown>) => {
      const body = checkedBody(CustomerCreate, {
        email: flags.email,
        first_name: flags.firstName,
        middle_name: flags.middleName,
        last_name: flags.lastName,
        phone: flags.phone,
        metadata: flags.metadata,
      });
      await run({ body }, f);
    });
  withExamples(command, 'pay customers create --email jenny@example.com --first-name Jenny', 'pay customers create --email a@example.com --metadata plan=gold --json');
}

export async function run(options: CreateOptions, f: Factory): Promise<Customer> {
  const client = await f.client();
  const customer = await client.call<Customer>('customers.create', { body: options.body });
  if (f.io.human) f.io.success(`Created customer ${customer.id}`);
  f.io.printObject(customer);
  return customer;
}
