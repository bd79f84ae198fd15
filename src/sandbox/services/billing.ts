import { dueInstant } from '../../domain/schedule.js';
import { earliest } from '../../infra/time.js';
import type { DueWork } from './due-work.js';
import type { ServiceContext } from './context.js';
import { cancelNow, chargeScheduledPayment } from './subscriptions.js';

/**
 * The billing engine, as the test clock's due work: at each step, subscriptions whose
 * cancel_at has come are canceled first (before any payment due that day), then every
 * payment due is attempted. Both questions are single indexed queries.
 */
export const billing: DueWork = {
  nextDue(ctx: ServiceContext): string | undefined {
    const payment = ctx.store.billing.nextPaymentAt(ctx.account.id);
    const cancelDate = ctx.store.billing.nextCancelAt(ctx.account.id);
    return earliest([cancelDate === undefined ? undefined : dueInstant(cancelDate), payment]);
  },

  run(ctx: ServiceContext): void {
    // Everything here falls due at 00:00:00Z of a date, so "due by now" is "due by today".
    for (const subscription of ctx.store.billing.cancelsDue(ctx.account.id, ctx.today)) cancelNow(ctx, subscription);
    for (const subscription of ctx.store.billing.paymentsDue(ctx.account.id, dueInstant(ctx.today))) {
      chargeScheduledPayment(ctx, subscription);
    }
  },
};
