import { z } from 'zod';
import type { Client } from '../client/client.js';
import type { ListPage } from '../domain/common.js';
import type { PaymentIntent } from '../domain/payment-intents.js';
import { SUBSCRIPTION_STATUSES, type Subscription } from '../domain/subscriptions.js';
import { eachLimited } from './pool.js';

/** What the operator engine needs of the client: named calls with idempotency keys. */
export type OperatorClient = Pick<Client, 'call'>;

/** A subscription as support staff see it in a past_due list or a batch: with why and since when. */
export const PastDueSubscription = z.object({
  subscription_id: z.string(),
  customer_id: z.string(),
  payment_method_id: z.string(),
  /** past_due when selected, unless the subscription was named explicitly (`--only`). */
  status: z.enum(SUBSCRIPTION_STATUSES),
  amount: z.number(),
  currency: z.string(),
  /** When the current run of failed payment attempts began: the oldest failed intent since the last success. */
  past_due_since: z.string().nullable(),
  /** The latest generated payment intent and its last_payment_error. */
  payment_intent_id: z.string().nullable(),
  failure_code: z.string().nullable(),
  failure_message: z.string().nullable(),
});
export type PastDueSubscription = z.infer<typeof PastDueSubscription>;

export interface PastDueQuery {
  customer?: string | undefined;
  /** Exactly these subscriptions, whatever their status (those no longer past_due are shown as they are). */
  only?: string[] | undefined;
  /** At most this many; undefined for all. */
  limit?: number | undefined;
  /** Page size of the list requests (1–100). */
  pageSize?: number;
  /** Failure look-ups running at once. */
  concurrency?: number;
}

/**
 * past_due subscriptions, newest first, each with its last failure: every page of
 * `GET /v1/subscriptions?status=past_due` (cursor by cursor), then the subscription's
 * generated intents (`GET /v1/payment-intents?subscription_id=`).
 */
export async function findPastDue(client: OperatorClient, query: PastDueQuery = {}): Promise<{ data: PastDueSubscription[]; has_more: boolean }> {
  const { subscriptions, has_more } = query.only
    ? { subscriptions: await getEach(client, query.only), has_more: false }
    : await listPastDue(client, query);
  const data: PastDueSubscription[] = new Array(subscriptions.length);
  await eachLimited(subscriptions, query.concurrency ?? 8, async (s, i) => {
    data[i] = await withLastFailure(client, s);
  });
  return { data, has_more };
}

async function listPastDue(client: OperatorClient, query: PastDueQuery): Promise<{ subscriptions: Subscription[]; has_more: boolean }> {
  const pageSize = query.pageSize ?? 100;
  const wanted = query.limit ?? Infinity;
  const subscriptions: Subscription[] = [];
  let starting_after: string | undefined;
  for (;;) {
    const page = await client.call<ListPage<Subscription>>('subscriptions.list', {
      query: { status: 'past_due', customer_id: query.customer, limit: pageSize, starting_after },
    });
    subscriptions.push(...page.data);
    if (subscriptions.length >= wanted) {
      return { subscriptions: subscriptions.slice(0, wanted), has_more: subscriptions.length > wanted || page.has_more };
    }
    if (!page.has_more || page.data.length === 0) return { subscriptions, has_more: false };
    starting_after = page.data.at(-1)!.id;
  }
}

async function getEach(client: OperatorClient, ids: string[]): Promise<Subscription[]> {
  const unique = [...new Set(ids)];
  const subscriptions: Subscription[] = new Array(unique.length);
  await eachLimited(unique, 8, async (id, i) => {
    subscriptions[i] = await client.call<Subscription>('subscriptions.get', { params: { id } });
  });
  return subscriptions;
}

/** Walks the generated intents newest first, back to the last one that succeeded. */
async function withLastFailure(client: OperatorClient, s: Subscription): Promise<PastDueSubscription> {
  let latest: PaymentIntent | undefined;
  let oldestFailed: PaymentIntent | undefined;
  let starting_after: string | undefined;
  walk: for (;;) {
    const page = await client.call<ListPage<PaymentIntent>>('payment_intents.list', {
      query: { subscription_id: s.id, limit: 20, starting_after },
    });
    for (const intent of page.data) {
      latest ??= intent;
      if (intent.status === 'succeeded' || s.status !== 'past_due') break walk;
      oldestFailed = intent;
    }
    if (!page.has_more || page.data.length === 0) break;
    starting_after = page.data.at(-1)!.id;
  }
  const error = latest?.status === 'succeeded' ? null : (latest?.last_payment_error ?? null);
  return {
    subscription_id: s.id,
    customer_id: s.customer_id,
    payment_method_id: s.payment_method_id,
    status: s.status,
    amount: s.price,
    currency: s.currency,
    past_due_since: oldestFailed?.created ?? null,
    payment_intent_id: latest?.id ?? null,
    failure_code: error?.code ?? null,
    failure_message: error?.message ?? null,
  };
}
