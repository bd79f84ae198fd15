import type { ListQuery } from '../../domain/common.js';
import type { Charge } from '../../domain/payment-intents.js';
import type { ServiceContext } from './context.js';

export const getCharge = (ctx: ServiceContext, id: string) => ctx.get<Charge>('charge', id);

export const listCharges = (ctx: ServiceContext, query: ListQuery & { payment_intent_id?: string | undefined; customer_id?: string | undefined }) =>
  ctx.list<Charge>('charge', {
    limit: query.limit,
    starting_after: query.starting_after,
    filters: { payment_intent_id: query.payment_intent_id, customer_id: query.customer_id },
  });
