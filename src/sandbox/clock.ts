import { ApiError } from '../domain/errors.js';
import type { ServiceContext } from './services/context.js';
import type { Store } from './store/index.js';

/**
 * Work that comes due with time (subscription payments, cancel_at, expiring sessions).
 * `nextDue` names the earliest instant after `ctx.now` at which it has work, so the
 * clock can jump over idle days; `run` does everything due at or before `ctx.now`.
 */
export interface DueWork {
  nextDue(ctx: ServiceContext): string | undefined;
  run(ctx: ServiceContext): void;
}

/** Per-account test clock: it moves only when told, and only forwards. */
export class TestClock {
  private readonly work: DueWork[] = [];

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
   * where the finished work ends: nothing due runs twice, nothing is skipped.
   */
  advance(ctxFor: (now: string) => ServiceContext, to: string): void {
    const account = ctxFor(to).account.id;
    const from = this.now(account);
    if (Date.parse(to) < Date.parse(from)) {
      throw new ApiError(400, 'parameter_invalid', `Invalid to: the clock cannot go backwards (it is ${from}).`, { param: 'to' });
    }
    for (;;) {
      const now = this.now(account);
      const current = ctxFor(now);
      const next = this.work
        .map((w) => w.nextDue(current))
        .filter((d): d is string => d !== undefined && Date.parse(d) > Date.parse(now))
        .reduce<string>((a, b) => (Date.parse(b) < Date.parse(a) ? b : a), to);
      const step = Date.parse(next) < Date.parse(to) ? next : to;
      this.store.db.transaction(() => {
        const ctx = ctxFor(step);
        for (const w of this.work) w.run(ctx);
        this.store.accounts.setClockNow(account, step);
      });
      if (step === to) return;
    }
  }
}

export const isoNow = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
