import type { ServiceContext } from './context.js';

/**
 * Work that comes due with the test clock (subscription payments, cancel_at, expiring
 * sessions). `nextDue` names the earliest instant at which it has work left, so the clock
 * can jump over idle days (an instant at or before `ctx.now` is work overdue, e.g. a
 * payment due today created after midnight); `run` does everything due at or before
 * `ctx.now`.
 */
export interface DueWork {
  nextDue(ctx: ServiceContext): string | undefined;
  run(ctx: ServiceContext): void;
}
