import { randomUUID } from 'node:crypto';
import { mkdir, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ListPage } from '../domain/common.js';
import { ApiError } from '../domain/errors.js';
import { formatAmount } from '../domain/money.js';
import { acquireLock, acquireLockInTurn, LockedError } from '../infra/pid-lock.js';
import { randomToken } from '../domain/ids.js';
import type { PaymentIntent } from '../domain/payment-intents.js';
import type { Subscription } from '../domain/subscriptions.js';
import { lockHolder } from '../infra/pid-lock.js';
import { type BatchHeader, type ItemResult, Journal, JournalError, type JournalState, lockFile, readJournal } from './journal.js';
import { batchDecision, type PastDueSubscription, pastDueNow, type SkipReason, skipReasonText } from './past-due.js';
import { eachLimited } from './pool.js';
import { type OperatorClient, patient, StoppedWaiting } from './rate-limit.js';

// The past_due batch retry engine. Each item the batch's rule retries (batchDecision) is
// retried once, through `POST /v1/subscriptions/{id}/retry` with an idempotency key that
// is in the journal before the request leaves; a batch cut short (crash, Ctrl-C, service unreachable) is
// resumed from its journal: items with a result are done; an item started without one
// takes the attempt its subscription shows since it was selected as its result, or, when
// there is none, is sent again with its original key (the service answers what it answered
// the first time, so nothing is charged twice, even after the service forgot the key); the
// rest are started. Items the rule leaves alone
// are journaled as skipped with the reason, no request sent. Batches running at once
// (other journals, other processes of this config dir) take each item in turn under a
// claim: the rule is applied to what the other batch's attempt left, never to what it
// found. No terminal I/O here: progress goes to callbacks.

export interface OpenBatch {
  journal: Journal;
  state: JournalState;
}

export function newBatchId(now = new Date()): string {
  return `batch_${now.toISOString().replace(/[-:]|\.\d+/g, '')}_${randomToken(6)}`;
}

export const journalFile = (dir: string, batchId: string) => join(dir, `${batchId}.jsonl`);

/** A new batch of exactly these items, its journal at `path` (default: `<dir>/<batch id>.jsonl`). */
export async function createBatch(input: {
  dir: string;
  path?: string | undefined;
  account: string;
  base_url: string;
  selection: BatchHeader['selection'];
  items: PastDueSubscription[];
}): Promise<OpenBatch> {
  const batch_id = newBatchId();
  const header: BatchHeader = {
    type: 'batch',
    version: 2,
    batch_id,
    created: new Date().toISOString(),
    account: input.account,
    base_url: input.base_url,
    selection: input.selection,
    items: input.items,
  };
  const journal = await Journal.create(input.path ?? journalFile(input.dir, batch_id), header);
  return { journal, state: { header, keys: new Map(), latestBefore: new Map(), results: new Map(), wholeLength: 0 } };
}

export const openBatch = (path: string): Promise<OpenBatch> => Journal.resume(path);

export interface BatchSummary {
  batch_id: string;
  path: string;
  created: string;
  account: string;
  items: number;
  done: number;
  /** The live process running the batch now (it holds the journal's lock); null when none does. */
  running: number | null;
}

/**
 * The batches journaled in `dir`, newest first. A journal that cannot be read (a damaged
 * line, a header torn by a crash) is passed over and left as it is, but told to
 * `unreadable` in words naming the file: its batch exists and may have charged, and
 * whoever looks for it must know. One whose lock a live process holds is being created
 * (the header is written under the lock): it is passed over without a word.
 */
export async function listBatches(dir: string, unreadable: (problem: string) => void): Promise<BatchSummary[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.jsonl'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const batches: BatchSummary[] = [];
  for (const name of names) {
    const path = join(dir, name);
    let state: JournalState;
    try {
      state = await readJournal(path);
    } catch (error) {
      // Removed since the directory was read: not a batch any more.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      if ((await lockHolder(lockFile(path))) === undefined) unreadable(error instanceof JournalError ? error.message : `${path} cannot be read: ${(error as Error).message}.`);
      continue;
    }
    const { header } = state;
    batches.push({ batch_id: header.batch_id, path, created: header.created, account: header.account, items: header.items.length, done: state.results.size, running: (await lockHolder(lockFile(path))) ?? null });
  }
  return batches.sort((a, b) => b.created.localeCompare(a.created));
}

export interface BatchReport {
  batch_id: string;
  journal: string;
  /** Every item of the batch, as selected. */
  items: PastDueSubscription[];
  /** Every item with a result, earlier runs' included, in the batch's order. */
  results: ItemResult[];
  /** Items without a result: never started, or started and cut short. */
  remaining: PastDueSubscription[];
  interrupted: boolean;
  /** What stopped the batch early: the service unreachable or refusing us, the journal unwritable. */
  error?: unknown;
}

/** What a journal (at `path`) says of its batch so far. */
export function reportOf(state: JournalState, path: string, stop: { interrupted?: boolean; error?: unknown } = {}): BatchReport {
  const { header, results } = state;
  return {
    batch_id: header.batch_id,
    journal: path,
    items: header.items,
    results: header.items.flatMap((item) => results.get(item.subscription_id) ?? []),
    remaining: header.items.filter((item) => !results.has(item.subscription_id)),
    interrupted: stop.interrupted ?? false,
    ...(stop.error === undefined ? {} : { error: stop.error }),
  };
}

export interface RunOptions {
  client: OperatorClient;
  batch: OpenBatch;
  /** Retries running at once, at most: halved each time the service answers 429 after the client's own retries. */
  concurrency: number;
  /** Aborted: no new item is started; those running finish and are journaled. */
  signal?: AbortSignal | undefined;
  /** Called once an item's result is in the journal. */
  onResult?: (result: ItemResult) => void;
  /**
   * Where items are claimed while one is checked and retried, one lock file each, shared by
   * every batch of the account on this machine (default: the journal's folder).
   */
  claims?: string | undefined;
  /** Called when another batch (the process `pid`) is retrying this item: this one waits for it. */
  onWaiting?: (subscriptionId: string, pid: number) => void;
  /** Called when the service rate limits the batch, with the concurrency it goes on with. */
  onRateLimited?: (concurrency: number) => void;
  newKey?: () => string;
  /** How long to wait before sending a rate-limited request again (its nth time). */
  rateLimitWait?: (n: number) => number;
}

/** How long an item may wait for another batch's retry of it (that one's rate-limit waits included) before the batch stops, resumable. */
const CLAIM_WAIT_MS = 10 * 60_000;

/** Runs (or continues) a batch until every item has a result, or it is stopped. */
export async function runRetryBatch(options: RunOptions): Promise<BatchReport> {
  const { batch } = options;
  const { state, journal } = batch;
  const newKey = options.newKey ?? randomUUID;
  const rule = { includeUnchanged: state.header.selection.include_unchanged };
  const todo = state.header.items.filter((item) => !state.results.has(item.subscription_id));
  let concurrency = options.concurrency;
  // Every request of the batch, sent again (a retry with its key) while the service rate limits it; stopped
  // meanwhile, the batch is interrupted (exit 130), not failed, and a started item stays started.
  const client = patient(options.client, {
    wait: options.rateLimitWait,
    signal: options.signal,
    // The service is past its rate: fewer at once.
    onLimited: () => {
      if (concurrency > 1) options.onRateLimited?.((concurrency = Math.ceil(concurrency / 2)));
    },
  });

  const claims = options.claims ?? dirname(journal.path);
  await mkdir(claims, { recursive: true, mode: 0o700 });

  /**
   * Another batch checking the same subscription at once would find the card changed and
   * retry it too, right after that batch's attempt declined on it: a card tried twice, a
   * hard decline retried. Under the claim, the second checks after the first's attempt.
   */
  const claimed = async (item: PastDueSubscription): Promise<() => Promise<void>> => {
    const path = join(claims, `${item.subscription_id}.lock`);
    try {
      return await acquireLock(path);
    } catch (error) {
      if (!(error instanceof LockedError)) throw error;
      options.onWaiting?.(item.subscription_id, error.pid);
      // Stopped while the other batch holds it: nothing of this item was sent, it is left for the resume.
      return acquireLockInTurn(path, CLAIM_WAIT_MS, options.signal).catch((reason: unknown) => {
        throw options.signal?.aborted ? new StoppedWaiting() : reason;
      });
    }
  };

  const retryOne = async (item: PastDueSubscription): Promise<void> => {
    const release = await claimed(item);
    try {
      await checkAndRetry(item);
    } finally {
      await release();
    }
  };

  const checkAndRetry = async (item: PastDueSubscription): Promise<void> => {
    let result: ItemResult;
    let key = state.keys.get(item.subscription_id);
    // Started by a run cut short: its retry may have reached the service, which keeps a key's answer a day only.
    // Compared with the intent latest as its key was written, not at selection: an attempt by anyone in between is not this batch's.
    const before = state.latestBefore.has(item.subscription_id) ? state.latestBefore.get(item.subscription_id)! : item.payment_intent_id;
    const earlier = key === undefined ? undefined : await earlierAttempt(client, item, key, before);
    const selected = batchDecision(item, rule);
    if (earlier) {
      result = earlier;
    } else if (!selected.retry) {
      // Skipped as selected (and confirmed): a card changed since makes it the next batch's, never a charge beyond what this one was started for.
      result = notRetried(item, selected.skip_reason);
    } else {
      // The rule holds at the item's turn, not only at selection: its card may have changed (back) since, in a long batch or before a resume.
      const now = await pastDueNow(client, item.subscription_id);
      const decision = batchDecision(now, rule);
      if (decision.retry) {
        if (key === undefined) {
          key = newKey();
          await journal.started(item.subscription_id, key, now.payment_intent_id);
          state.keys.set(item.subscription_id, key);
          state.latestBefore.set(item.subscription_id, now.payment_intent_id);
        }
        result = await attempt(client, item, key);
      } else {
        result = notRetried(now, decision.skip_reason);
      }
    }
    await journal.result(result);
    state.results.set(item.subscription_id, result);
    options.onResult?.(result);
  };

  try {
    await eachLimited(todo, () => concurrency, retryOne, () => options.signal?.aborted ?? false);
  } catch (error) {
    if (error instanceof StoppedWaiting) return reportOf(state, journal.path, { interrupted: true });
    return reportOf(state, journal.path, { interrupted: options.signal?.aborted, error });
  }
  return reportOf(state, journal.path, { interrupted: options.signal?.aborted && state.results.size < state.header.items.length });
}


/** An item the batch's rule leaves alone: no request, its last decline kept for the record. */
function notRetried(item: PastDueSubscription, reason: SkipReason): ItemResult {
  return {
    subscription_id: item.subscription_id,
    customer_id: item.customer_id,
    amount: item.amount,
    currency: item.currency,
    outcome: 'skipped',
    status: item.status,
    decline_code: item.decline_code,
    skip_reason: reason,
    message: skipReasonText(reason, item),
    payment_intent_id: item.payment_intent_id,
    idempotency_key: null,
    ...NOTHING_RECEIVED,
  };
}

/** The result's fields for an item nothing was charged for. */
const NOTHING_RECEIVED = { amount_received: null, partial: false } as const;

/**
 * What a paid attempt asked (the price when it was made) and received: after a partial
 * authorization (succeeded all the same, the subscription active) less, and support is told
 * to charge the difference.
 */
function received(intent: Pick<PaymentIntent, 'amount' | 'amount_received' | 'currency'>): Pick<ItemResult, 'amount' | 'amount_received' | 'partial' | 'message'> {
  const partial = intent.amount_received < intent.amount;
  const money = (amount: number) => formatAmount(amount, intent.currency);
  return {
    amount: intent.amount,
    amount_received: intent.amount_received,
    partial,
    message: partial ? `partial authorization: ${money(intent.amount_received)} of ${money(intent.amount)} received; charge the ${money(intent.amount - intent.amount_received)} difference in another payment` : null,
  };
}

const intentOf = (client: OperatorClient, id: string) => client.call<PaymentIntent>('payment_intents.get', { params: { id } });

/**
 * What became of a retry a run cut short may have sent: its subscription's latest payment
 * intent is no longer `before`, the latest as its key was written, so an attempt reached the service
 * (this batch's, or anyone's since), and the first such attempt is the item's result (a later one,
 * a scheduled payment a month on, is not this batch's). Undefined when
 * none did: the retry is sent (again) with its key. Sending it blindly would, once the
 * service had forgotten the key, attempt a second payment, or count a paid one as skipped.
 */
async function earlierAttempt(client: OperatorClient, item: PastDueSubscription, key: string, before: string | null): Promise<ItemResult | undefined> {
  const now = await client.call<Subscription>('subscriptions.get', { params: { id: item.subscription_id } });
  if (now.latest_payment_intent_id === before) return undefined;
  const own = await firstAttemptAfter(client, item.subscription_id, before);
  const base = { subscription_id: item.subscription_id, customer_id: item.customer_id, amount: item.amount, currency: item.currency, idempotency_key: key, status: now.status, payment_intent_id: own.id };
  // Paid, then maybe paused, canceled or due again before the resume: still paid.
  if (own.status === 'succeeded') return { ...base, outcome: 'succeeded', decline_code: null, skip_reason: null, ...received(own) };
  // Declined, then paid by another attempt since.
  if (now.status === 'active') {
    const paid = await intentOf(client, now.latest_payment_intent_id!);
    return { ...base, outcome: 'succeeded', decline_code: null, skip_reason: null, ...received(paid), payment_intent_id: paid.id };
  }
  if (now.status !== 'past_due') {
    return { ...base, outcome: 'skipped', decline_code: null, skip_reason: 'not_past_due', message: skipReasonText('not_past_due', { status: now.status, decline_code: null }), ...NOTHING_RECEIVED };
  }
  const error = own.last_payment_error;
  return { ...base, outcome: 'failed', decline_code: error?.code ?? null, skip_reason: null, message: error?.message ?? null, ...NOTHING_RECEIVED };
}

/** The subscription's oldest payment intent newer than `before` (the oldest of all when null); there is one. */
async function firstAttemptAfter(client: OperatorClient, subscriptionId: string, before: string | null): Promise<PaymentIntent> {
  let first: PaymentIntent | undefined;
  let starting_after: string | undefined;
  // Newest first, down to `before`.
  for (;;) {
    const page = await client.call<ListPage<PaymentIntent>>('payment_intents.list', { query: { subscription_id: subscriptionId, limit: 100, starting_after } });
    for (const intent of page.data) {
      if (intent.id === before) return first!;
      first = intent;
    }
    if (!page.has_more || page.data.length === 0) return first!;
    starting_after = page.data.at(-1)!.id;
  }
}

/**
 * One retry and what it came to. Throws when the outcome is unknown or every other item
 * would fare the same (no answer, credentials refused, rate limited or a server error
 * after the client's own retries): the item stays started, to be sent again with its key.
 */
async function attempt(client: OperatorClient, item: PastDueSubscription, key: string): Promise<ItemResult> {
  const base = { subscription_id: item.subscription_id, customer_id: item.customer_id, amount: item.amount, currency: item.currency, idempotency_key: key };
  let subscription: Subscription;
  try {
    subscription = await client.call<Subscription>('subscriptions.retry', { params: { id: item.subscription_id }, idempotencyKey: key });
  } catch (error) {
    if (!(error instanceof ApiError) || [401, 403, 429].includes(error.status) || error.status >= 500) throw error;
    if (error.status === 409 && error.code === 'invalid_state') {
      const now = await client.call<Subscription>('subscriptions.get', { params: { id: item.subscription_id } });
      // Still past_due: its failed payment was paid directly since the last look, and the service refused to charge it again.
      if (now.status === 'past_due') return { ...base, outcome: 'skipped', status: now.status, decline_code: null, skip_reason: 'latest_payment_succeeded', message: error.message, payment_intent_id: null, ...NOTHING_RECEIVED };
      // No longer past_due (paid, paused, canceled since it was selected): nothing to retry.
      return { ...base, outcome: 'skipped', status: now.status, decline_code: null, skip_reason: 'not_past_due', message: skipReasonText('not_past_due', { status: now.status, decline_code: null }), payment_intent_id: null, ...NOTHING_RECEIVED };
    }
    const after = error.extra.subscription as Pick<Subscription, 'status'> | undefined;
    const intent = error.extra.payment_intent as Pick<PaymentIntent, 'id'> | undefined;
    return {
      ...base,
      outcome: 'failed',
      status: after?.status ?? (error.status === 402 ? 'past_due' : null),
      decline_code: error.code,
      skip_reason: null,
      message: error.message,
      payment_intent_id: intent?.id ?? null,
      ...NOTHING_RECEIVED,
    };
  }
  // The answer is the subscription: what its payment received (all of it, or part) is on the intent.
  const paid = await intentOf(client, subscription.latest_payment_intent_id!);
  return { ...base, outcome: 'succeeded', status: subscription.status, decline_code: null, skip_reason: null, ...received(paid), payment_intent_id: paid.id };
}
