import { mkdir, open, readFile, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { acquireLock } from '../infra/pid-lock.js';
import { PastDueSubscription, SKIP_REASONS } from './past-due.js';

// The batch journal: one append-only JSON-lines file a batch. Its first line is the
// batch (who, where, which items, as confirmed); then a `started` line with the
// idempotency key of an item's retry, written and fsync'd before the request is sent;
// then the item's `result`. A crash can tear only the last line, which was never
// acted on: a torn `started` means its request was never sent; a torn `result` means
// the item is replayed with its key and the service answers what it answered before.

export const ITEM_OUTCOMES = ['succeeded', 'failed', 'skipped'] as const;

export const ItemResult = z.object({
  subscription_id: z.string(),
  customer_id: z.string(),
  amount: z.number(),
  currency: z.string(),
  outcome: z.enum(ITEM_OUTCOMES),
  /** The subscription's status after the attempt, when known. */
  status: z.string().nullable(),
  /** The attempt's decline or error code; for an item skipped by the batch's rule, the decline it was skipped for. */
  decline_code: z.string().nullable(),
  skip_reason: z.enum(SKIP_REASONS).nullable(),
  message: z.string().nullable(),
  /** The attempt's payment intent; for an item skipped by the batch's rule, the failed one. */
  payment_intent_id: z.string().nullable(),
  /** null when no request was sent. */
  idempotency_key: z.string().nullable(),
  /** What the retry received (its intent's amount_received); null when nothing was charged, and in journals of earlier versions. */
  amount_received: z.number().nullable().default(null),
  /**
   * A partial authorization: amount_received below amount. The subscription is active all
   * the same; the difference is for support to charge in another payment (spec section 4 rule 7).
   */
  partial: z.boolean().default(false),
});
export type ItemResult = z.infer<typeof ItemResult>;

export const BatchHeader = z.object({
  type: z.literal('batch'),
  version: z.literal(2),
  batch_id: z.string(),
  created: z.string(),
  account: z.string(),
  base_url: z.string(),
  selection: z.object({ customer_id: z.string().nullable(), only: z.array(z.string()).nullable(), include_unchanged: z.boolean() }),
  items: z.array(PastDueSubscription),
});
export type BatchHeader = z.infer<typeof BatchHeader>;

const Started = z.object({
  type: z.literal('started'),
  subscription_id: z.string(),
  idempotency_key: z.string(),
  /** The subscription's latest payment intent as the key was written: a later one is an attempt that reached the service. Absent in journals of earlier versions. */
  payment_intent_id: z.string().nullable().optional(),
  at: z.string(),
});
const Result = ItemResult.extend({ type: z.literal('result'), at: z.string() });
const Record = z.discriminatedUnion('type', [Started, Result]);

/** What a journal says: the batch, the key each started item was sent with, the results. */
export interface JournalState {
  header: BatchHeader;
  keys: Map<string, string>;
  /** The latest payment intent of each started item as its key was written, where the journal says. */
  latestBefore: Map<string, string | null>;
  results: Map<string, ItemResult>;
  /** Length in bytes of the whole lines; anything after is a torn last line. */
  wholeLength: number;
}

export class JournalError extends Error {
  override name = 'JournalError';
}

/** Reads a journal's text; a torn last line (no newline) is ignored, any other bad line is an error. */
export function parseJournal(text: string, path: string): JournalState {
  const end = text.lastIndexOf('\n') + 1;
  const lines = text.slice(0, end).split('\n').slice(0, -1);
  if (lines.length === 0) throw new JournalError(`${path} is not a batch journal: it has no complete first line.`);
  const parse = <S extends z.ZodType>(schema: S, line: string, n: number): z.output<S> => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new JournalError(`${path} line ${n} is not JSON: the journal is damaged.`);
    }
    const result = schema.safeParse(value);
    if (!result.success) throw new JournalError(`${path} line ${n} is not a journal record: ${result.error.issues[0]?.message ?? 'invalid'}.`);
    return result.data;
  };
  const header = parse(BatchHeader, lines[0]!, 1);
  const keys = new Map<string, string>();
  const latestBefore = new Map<string, string | null>();
  const results = new Map<string, ItemResult>();
  lines.slice(1).forEach((line, i) => {
    const record = parse(Record, line, i + 2);
    if (record.type === 'started') {
      // The first key is the one whose request may have been sent.
      if (!keys.has(record.subscription_id)) {
        keys.set(record.subscription_id, record.idempotency_key);
        if (record.payment_intent_id !== undefined) latestBefore.set(record.subscription_id, record.payment_intent_id);
      }
    } else {
      const { type: _type, at: _at, ...result } = record;
      results.set(result.subscription_id, result);
    }
  });
  return { header, keys, latestBefore, results, wholeLength: Buffer.byteLength(text.slice(0, end)) };
}

export async function readJournal(path: string): Promise<JournalState> {
  return parseJournal(await readFile(path, 'utf8'), path);
}

/** An open journal, appended to one fsync'd line at a time, in the order written. */
export class Journal {
  private queue: Promise<void> = Promise.resolve();

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    private readonly unlock: () => Promise<void>,
  ) {}

  /** A new journal (never over an existing file), locked, its header durable before it returns. */
  static async create(path: string, header: BatchHeader): Promise<Journal> {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const unlock = await acquireLock(lockFile(path));
    let handle: FileHandle | undefined;
    try {
      handle = await open(path, 'wx', 0o600);
      const journal = new Journal(path, handle, unlock);
      await journal.append(header);
      await syncDirectory(dirname(path));
      return journal;
    } catch (error) {
      await handle?.close();
      await unlock();
      throw error;
    }
  }

  /**
   * Reopens a journal to continue its batch, locked against any other process doing the
   * same (LockedError names the one that holds it); a torn last line is cut off first.
   */
  static async resume(path: string): Promise<{ journal: Journal; state: JournalState }> {
    const unlock = await acquireLock(lockFile(path));
    try {
      const handle = await open(path, 'r+');
      let state: JournalState;
      try {
        state = parseJournal(await handle.readFile('utf8'), path);
        const { size } = await handle.stat();
        if (size > state.wholeLength) {
          await handle.truncate(state.wholeLength);
          await handle.sync();
        }
      } finally {
        await handle.close();
      }
      // Reopened in append mode: every write lands at the end.
      return { journal: new Journal(path, await open(path, 'a'), unlock), state };
    } catch (error) {
      await unlock();
      throw error;
    }
  }

  /** Records the key an item's request is about to be sent with, and its subscription's latest payment intent before it. */
  started(subscriptionId: string, idempotencyKey: string, latestPaymentIntentId: string | null): Promise<void> {
    return this.append({ type: 'started', subscription_id: subscriptionId, idempotency_key: idempotencyKey, payment_intent_id: latestPaymentIntentId, at: new Date().toISOString() });
  }

  result(result: ItemResult): Promise<void> {
    return this.append({ type: 'result', ...result, at: new Date().toISOString() });
  }

  /** Closes the file and releases its lock. */
  async close(): Promise<void> {
    await this.queue;
    await this.handle.close();
    await this.unlock();
  }

  private append(record: object): Promise<void> {
    const write = this.queue.then(async () => {
      // appendFile loops until the whole line is written; sync makes it durable.
      await this.handle.appendFile(`${JSON.stringify(record)}\n`);
      await this.handle.sync();
    });
    // A failed write fails its caller; later writes still run in order.
    this.queue = write.catch(() => undefined);
    return write;
  }
}

/** The lock file of a journal: held while a process runs its batch. */
export const lockFile = (journalPath: string) => `${journalPath}.lock`;

/** Makes a new file's directory entry durable too. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
