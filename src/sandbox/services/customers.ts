import type { Customer, CustomerCreate } from '../../domain/customers.js';
import type { ListQuery } from '../../domain/common.js';
import type { ServiceContext } from './context.js';

export function createCustomer(ctx: ServiceContext, input: CustomerCreate): Customer {
  const customer = ctx.create<Customer>('customer', {
    email: input.email ?? null,
    first_name: input.first_name ?? null,
    middle_name: input.middle_name ?? null,
    last_name: input.last_name ?? null,
    phone: input.phone ?? null,
    metadata: input.metadata ?? {},
  });
  ctx.emit('customer.created', customer);
  return customer;
}

export const getCustomer = (ctx: ServiceContext, id: string) => ctx.get<Customer>('customer', id);

export const listCustomers = (ctx: ServiceContext, query: ListQuery & { email?: string | undefined }) =>
  ctx.list<Customer>('customer', { limit: query.limit, starting_after: query.starting_after, filters: { email: query.email } });
