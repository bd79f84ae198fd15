import { ApiError, idempotencyKeyReused } from '../domain/errors.js';
import { compareInstants, earliest, realScheduler, type Scheduler } from '../infra/time.js';
import type { ServiceContext } from './services/context.js';
import type { DueWork } from './services/due-work.js';
import type { Store } from './store/index.js';

/**
 * How long the steps of an advance share one transaction: long enough that a commit (its
 * page writes, its fsync) is shared by thousands of payments, and that a customer's index
 * pages, which each of its payments changes, are written once for several weeks of them
 * (at 100 ms, four years of weekly billing of 1,000 subscriptions took a quarter longer);
 * short enough that a request arriving meanwhile waits at most half a second.
 */
export const BATCH_MS = 500;

/** Per-account test clock: it moves only when told, and only forwards. */
export class TestClock {
  private readonly work: DueWork[] = [];
  /** Accounts whose clock is being advanced (assertIdle): the advance's request, if keyed, and its end. */
  private readonly advancing = new Map<string, { request: { key: string; bodyHash: string } | undefined; done: Promise<void> }>();

  constructor(
    private readonly store: Store,
    private readonly scheduler: Scheduler = realScheduler,
    /** How long one transaction of an advance runs on before it commits and gives way (BATCH_MS). */
    private readonly batchMs: number = BATCH_MS,
  ) {}

  register(work: DueWork): void {
    this.work.push(work);
  }

  now(account: string): string {
    return this.store.accounts.clockNow(account);
  }

  /**
   * Moves the clock to `to`, running due work in date order, one step a date. Each step
   * moves the clock in the transaction of its work, so a crash midway leaves the clock
   * exactly where the finished work ends: nothing due runs twice, nothing is skipped. Steps
   * share a transaction for up to batchMs, so a commit's cost is spread over many steps;
   * then the advance commits and yields, so a long advance does not stop the sandbox
   * answering other requests, heartbeats and deliveries. Call it outside any transaction,
   * or the steps would all join that one.
   */
  async advance(ctxFor: (now: string) => ServiceContext, to: string, request?: { key: string; bodyHash: string }): Promise<void> {
    const account = ctxFor(to).account.id;
    const from = this.now(account);
    if (compareInstants(to, from) < 0) {
      throw new ApiError(400, 'parameter_invalid', `Invalid to: the clock cannot go backwards (it is ${from}).`, { param: 'to' });
    }
    // A retry of this very request (its answer timed out, its connection reset) waits for it,
    // then goes on as the retry of a finished advance does: to the same target, no further.
    const sameRequest = (running: { request: { key: string; bodyHash: string } | undefined } | undefined) =>
      running !== undefined && request !== undefined && running.request?.key === request.key && running.request.bodyHash === request.bodyHash;
    while (sameRequest(this.advancing.get(account))) await this.advancing.get(account)!.done.catch(() => undefined);
    this.assertIdle(account);
    const accounts = this.store.accounts;
    const done = (async () => {
      // Kept until the next advance, for a retry of its request (resumable): cut short by a
      // crash, or done but killed before its answer was recorded, in another transaction.
      this.store.db.transaction(() => accounts.setClockAdvance(account, request ? { to, key: request.key, body_hash: request.bodyHash } : null));
      await this.runSteps(account, ctxFor, to);
      // Idempotency keys expire by this clock alone: those it moved past go now.
      this.store.db.transaction(() => this.store.idempotency.forgetExpired(account, to));
    })();
    this.advancing.set(account, { request, done });
    try {
      await done;
    } finally {
      this.advancing.delete(account);
    }
  }

  /**
   * 409 while the account's clock is being advanced. A second advance would race it (and
   * could move it back); a reset would be undone by it, as its next batch goes on from the
   * reset clock to the old target.
   */
  assertIdle(account: string): void {
    if (this.advancing.has(account)) {
      throw new ApiError(409, 'invalid_state', 'The test clock of this account is already being advanced: wait for that advance to finish.');
    }
  }

  /**
   * The target of the latest advance, if this request (the same key and body) started it
   * and has no recorded answer: a crash cut it short, or came between its end and the
   * record. Done, it is the clock's now: the retry moves it no further. (A record that
   * expired needed the clock moved a day on, by another advance, which replaced it.)
   * Its key with another body is 422, as with a recorded answer: it would leave the
   * advance cut short and move the clock by the new body from wherever it stopped.
   */
  resumable(account: string, request: { key: string; bodyHash: string } | undefined): string | undefined {
    const latest = request && this.store.accounts.clockAdvance(account);
    if (!latest || latest.key !== request.key) return undefined;
    if (latest.body_hash !== request.bodyHash) throw idempotencyKeyReused(request.key);
    return latest.to;
  }

  private async runSteps(account: string, ctxFor: (now: string) => ServiceContext, to: string): Promise<void> {
    let overdueRunAt: string | undefined;
    // After a batch failed, its steps run again one per transaction: those before the
    // failing one commit, as they would have alone, and the failing one fails alone.
    let alone = 0;
    for (;;) {
      const overdueBefore = overdueRunAt;
      const deadline = this.scheduler.now() + this.batchMs;
      let steps = 0;
      try {
        const finished = this.store.db.transaction(() => {
          for (;;) {
            const now = this.now(account);
            const step = this.nextStep(ctxFor(now), to);
            if (step === now) {
              // Overdue work runs at once; if it is still due afterwards, looping would hang the sandbox.
              if (overdueRunAt === now) throw new Error(`due work at ${now} did not complete`);
              overdueRunAt = now;
            }
            const ctx = ctxFor(step);
            for (const w of this.work) w.run(ctx);
            this.store.accounts.setClockNow(account, step);
            steps++;
            if (step === to) return true;
            if (alone > 0 || this.scheduler.now() >= deadline) return false;
          }
        });
        if (finished) return;
      } catch (error) {
        if (steps === 0) throw error;
        overdueRunAt = overdueBefore;
        alone = steps + 1;
        continue;
      }
      if (alone > 0) alone--;
      await this.scheduler.yield();
    }
  }

  /** The next step from ctx.now: the earliest due instant before `to` (ctx.now when overdue), else `to`. */
  private nextStep(ctx: ServiceContext, to: string): string {
    const due = earliest(this.work.map((w) => w.nextDue(ctx)));
    if (due === undefined || compareInstants(due, to) >= 0) return to;
    return compareInstants(due, ctx.now) > 0 ? due : ctx.now;
  }
}
