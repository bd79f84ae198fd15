import { z } from 'zod';
import type { ListPage } from '../domain/common.js';
import { DECLINE_TYPES, declineType } from '../domain/declines.js';
import type { Charge, PaymentError, PaymentIntent } from '../domain/payment-intents.js';
import { SUBSCRIPTION_STATUSES, type Subscription } from '../domain/subscriptions.js';
import { eachLimited } from './pool.js';
import { type OperatorClient, patient } from './rate-limit.js';

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
  /** The latest generated payment intent. */
  payment_intent_id: z.string().nullable(),
  /**
   * That intent's status: succeeded on a past_due subscription when the intent was then
   * paid by confirming it directly, which leaves the subscription past_due (spec section 3,
   * rule 2). Null in journals of earlier versions.
   */
  payment_intent_status: z.string().nullable().default(null),
  /**
   * A failed payment intent of the current past_due run since paid by confirming it
   * directly (the latest, or an older one a later retry then failed after): the payment
   * the subscription owes is paid. Null when none; and in journals of earlier versions.
   */
  paid_directly_intent_id: z.string().nullable().default(null),
  /** The decline of the subscription's card when it failed in the current run, else of the latest failed attempt. */
  decline_code: z.string().nullable(),
  decline_message: z.string().nullable(),
  decline_type: z.enum(DECLINE_TYPES).nullable(),
  /** The payment method that decline was of. */
  failed_payment_method_id: z.string().nullable(),
  /** Whether the subscription's payment method is another than the failed attempt's; null when no attempt failed. */
  payment_method_changed: z.boolean().nullable(),
});
export type PastDueSubscription = z.infer<typeof PastDueSubscription>;

export const SKIP_REASONS = ['not_past_due', 'latest_payment_succeeded', 'unchanged_soft_decline', 'unchanged_hard_decline'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** Whether a batch retries a subscription, and if not, why. */
export type BatchDecision = { retry: true; skip_reason: null } | { retry: false; skip_reason: SkipReason };

/**
 * The batch's rule (spec: retry after the payment method is updated): a past_due
 * subscription is retried when its payment method changed since its last failed attempt;
 * with `includeUnchanged` also on an unchanged card whose decline was soft; a hard
 * decline on an unchanged card never, nor one whose failed intent was since paid directly
 * (`pay subscriptions retry` is the one-off override).
 */
export function batchDecision(item: PastDueSubscription, options: { includeUnchanged: boolean }): BatchDecision {
  const skip = (skip_reason: SkipReason): BatchDecision => ({ retry: false, skip_reason });
  if (item.status !== 'past_due') return skip('not_past_due');
  // Its failed payment was paid since, directly: a retry would charge the customer a second time.
  if (item.paid_directly_intent_id !== null) return skip('latest_payment_succeeded');
  // No failed attempt on record: no declined card to protect.
  if (item.payment_method_changed !== false) return { retry: true, skip_reason: null };
  if (item.decline_type === 'soft') return options.includeUnchanged ? { retry: true, skip_reason: null } : skip('unchanged_soft_decline');
  return skip('unchanged_hard_decline');
}

/** Why a skipped subscription is skipped, in words support staff can act on. */
export function skipReasonText(reason: SkipReason, item: Pick<PastDueSubscription, 'status' | 'decline_code'> & Partial<Pick<PastDueSubscription, 'paid_directly_intent_id'>>): string {
  switch (reason) {
    case 'not_past_due':
      return `status ${item.status}: nothing to retry`;
    case 'latest_payment_succeeded':
      return `its failed payment intent ${item.paid_directly_intent_id} was since paid directly (confirmed by itself, which leaves the subscription past_due): a retry would charge again`;
    case 'unchanged_soft_decline':
      return `payment method unchanged since the soft decline (${item.decline_code}): --include-unchanged retries it`;
    case 'unchanged_hard_decline':
      return `payment method unchanged since the hard decline (${item.decline_code}): update it first`;
  }
}

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
  /** How long to wait before sending a rate-limited request again (its nth time). */
  rateLimitWait?: (n: number) => number;
}

/**
 * past_due subscriptions, newest first, each with its last failure: every page of
 * `GET /v1/subscriptions?status=past_due` (cursor by cursor), then the subscription's
 * generated intents (`GET /v1/payment-intents?subscription_id=`).
 */
export async function findPastDue(service: OperatorClient, query: PastDueQuery = {}): Promise<{ data: PastDueSubscription[]; has_more: boolean }> {
  // Many look-ups at once: one meeting the service's rate limit waits and is sent again.
  const client = patient(service, { wait: query.rateLimitWait });
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

/** A subscription as the batch's rule sees it now: its status, its payment method, and its last failure. */
export async function pastDueNow(client: OperatorClient, id: string): Promise<PastDueSubscription> {
  return withLastFailure(client, await client.call<Subscription>('subscriptions.get', { params: { id } }));
}

/** Walks the generated intents newest first, back to the last one that succeeded. */
async function withLastFailure(client: OperatorClient, s: Subscription): Promise<PastDueSubscription> {
  let latest: PaymentIntent | undefined;
  let oldestFailed: PaymentIntent | undefined;
  let lastSucceeded: PaymentIntent | undefined;
  /** The failed intents of the current run, newest first. */
  const run: PaymentIntent[] = [];
  let starting_after: string | undefined;
  walk: for (;;) {
    const page = await client.call<ListPage<PaymentIntent>>('payment_intents.list', {
      query: { subscription_id: s.id, limit: 20, starting_after },
    });
    for (const intent of page.data) {
      latest ??= intent;
      if (intent.status === 'succeeded') lastSucceeded = intent;
      if (intent.status === 'succeeded' || s.status !== 'past_due') break walk;
      oldestFailed = intent;
      run.push(intent);
    }
    if (!page.has_more || page.data.length === 0) break;
    starting_after = page.data.at(-1)!.id;
  }
  const failed = latest?.status === 'succeeded' ? undefined : latest;
  // The decline that counts is the subscription's card's own, when it failed in this run: a later attempt
  // on another card (the customer's, confirming the intent; a retry before the card was changed back) does not change it.
  const error = (failed && (await failureWith(client, run, s.payment_method_id))) ?? failed?.last_payment_error ?? null;
  const failedWith = failed === undefined ? null : (error?.payment_method_id ?? failed.payment_method_id);
  return {
    subscription_id: s.id,
    customer_id: s.customer_id,
    payment_method_id: s.payment_method_id,
    status: s.status,
    amount: s.price,
    currency: s.currency,
    past_due_since: oldestFailed?.created ?? null,
    payment_intent_id: latest?.id ?? null,
    payment_intent_status: latest?.status ?? null,
    paid_directly_intent_id: s.status === 'past_due' && lastSucceeded !== undefined && (await paidAfterFailing(client, lastSucceeded, latest!)) ? lastSucceeded.id : null,
    decline_code: error?.code ?? null,
    decline_message: error?.message ?? null,
    decline_type: error ? declineType(error.code) : null,
    failed_payment_method_id: failedWith,
    payment_method_changed: failedWith === null ? null : failedWith !== s.payment_method_id,
  };
}

/** The latest failed attempt of the run made with `paymentMethodId`: an intent's last error, else one of its failed charges. */
async function failureWith(client: OperatorClient, run: PaymentIntent[], paymentMethodId: string): Promise<PaymentError | undefined> {
  for (const intent of run) {
    if (intent.last_payment_error?.payment_method_id === paymentMethodId) return intent.last_payment_error;
    const charges = await client.call<ListPage<Charge>>('charges.list', { query: { payment_intent_id: intent.id, limit: 100 } });
    const charge = charges.data.find((c) => c.status === 'failed' && c.payment_method_id === paymentMethodId);
    // A failed charge names its failure.
    if (charge) return { type: 'card_error', code: charge.failure_code!, message: charge.failure_message!, payment_method_id: paymentMethodId, charge_id: charge.id };
  }
  return undefined;
}

/**
 * Whether `paid`, the newest succeeded intent of a past_due subscription, is a failed
 * payment of it since paid directly rather than the payment before it fell due: the
 * service makes a new intent for every payment and every retry, so only a direct confirm
 * gives one of them a failed attempt before its success. The latest succeeded on a
 * past_due subscription can be nothing else.
 */
async function paidAfterFailing(client: OperatorClient, paid: PaymentIntent, latest: PaymentIntent): Promise<boolean> {
  if (paid === latest) return true;
  const charges = await client.call<ListPage<Charge>>('charges.list', { query: { payment_intent_id: paid.id, limit: 100 } });
  return charges.data.some((charge) => charge.status === 'failed');
}
