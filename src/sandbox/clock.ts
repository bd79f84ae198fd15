import { ApiError } from '../domain/errors.js';
import { compareInstants, earliest, realScheduler, type Scheduler } from '../infra/time.js';
import type { ServiceContext } from './services/context.js';
import type { DueWork } from './services/due-work.js';
import type { Store } from './store/index.js';

/** Per-account test clock: it moves only when told, and only forwards. */
export class TestClock {
  private readonly work: DueWork[] = [];
  /** Accounts whose clock is being advanced: a second advance would race it (and could move it back). */
  private readonly advancing = new Set<string>();

  constructor(
    private readonly store: Store,
    private readonly scheduler: Scheduler = realScheduler,
  ) {}

  register(work: DueWork): void {
    this.work.push(work);
  }

  now(account: string): string {
    return this.store.accounts.clockNow(account);
  }

  /**
   * Moves the clock to `to`, running due work in date order. Each step is one
   * transaction that also moves the clock, so a crash midway leaves the clock exactly
   * where the finished work ends: nothing due runs twice, nothing is skipped. Call it
   * outside any transaction, or the steps would all join that one. Between steps it
   * yields, so a long advance does not stop the sandbox answering other requests,
   * heartbeats and deliveries.
   */
  async advance(ctxFor: (now: string) => ServiceContext, to: string): Promise<void> {
    const account = ctxFor(to).account.id;
    const from = this.now(account);
    if (compareInstants(to, from) < 0) {
      throw new ApiError(400, 'parameter_invalid', `Invalid to: the clock cannot go backwards (it is ${from}).`, { param: 'to' });
    }
    if (this.advancing.has(account)) {
      throw new ApiError(409, 'invalid_state', 'The test clock of this account is already being advanced: wait for that advance to finish.');
    }
    this.advancing.add(account);
    try {
      await this.runSteps(account, ctxFor, to);
    } finally {
      this.advancing.delete(account);
    }
  }

  private async runSteps(account: string, ctxFor: (now: string) => ServiceContext, to: string): Promise<void> {
    let overdueRunAt: string | undefined;
    for (;;) {
      const now = this.now(account);
      const due = this.nextDue(ctxFor(now));
      let step = to;
      if (due !== undefined && compareInstants(due, to) < 0) step = compareInstants(due, now) > 0 ? due : now;
      if (step === now) {
        // Overdue work runs at once; if it is still due afterwards, looping would hang the sandbox.
        if (overdueRunAt === now) throw new Error(`due work at ${now} did not complete`);
        overdueRunAt = now;
      }
      this.store.db.transaction(() => {
        const ctx = ctxFor(step);
        for (const w of this.work) w.run(ctx);
        this.store.accounts.setClockNow(account, step);
      });
      if (step === to) return;
      await this.scheduler.yield();
    }
  }

  private nextDue(ctx: ServiceContext): string | undefined {
    return earliest(this.work.map((w) => w.nextDue(ctx)));
  }
}
