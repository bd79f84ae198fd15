import { ApiError } from '../domain/errors.js';
import type { ServiceContext } from './services/context.js';
import type { Store } from './store/index.js';

/**
 * Work that comes due with time (subscription payments, cancel_at, expiring sessions).
 * `nextDue` names the earliest instant at which it has work left, so the clock can jump
 * over idle days (an instant at or before `ctx.now` is work overdue, e.g. a payment due
 * today created after midnight); `run` does everything due at or before `ctx.now`.
 */
export interface DueWork {
  nextDue(ctx: ServiceContext): string | undefined;
  run(ctx: ServiceContext): void;
}

/** Per-account test clock: it moves only when told, and only forwards. */
export class TestClock {
  private readonly work: DueWork[] = [];
  /** Accounts whose clock is being advanced: a second advance would race it (and could move it back). */
  private readonly advancing = new Set<string>();

  constructor(private readonly store: Store) {}

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
    if (Date.parse(to) < Date.parse(from)) {
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
      if (due !== undefined && Date.parse(due) < Date.parse(to)) step = Date.parse(due) > Date.parse(now) ? due : now;
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
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private nextDue(ctx: ServiceContext): string | undefined {
    let earliest: string | undefined;
    for (const w of this.work) {
      const due = w.nextDue(ctx);
      if (due !== undefined && (earliest === undefined || Date.parse(due) < Date.parse(earliest))) earliest = due;
    }
    return earliest;
  }
}

export const isoNow = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
