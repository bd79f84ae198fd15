import type { Subscription } from '../../domain/subscriptions.js';
import type { Database } from './db.js';

// The predicates repeat the partial indexes' WHERE clauses of migration 2 word for word:
// that is what lets SQLite use them. next_payment_at and cancel_at are UTC
// `YYYY-MM-DD…` strings, so text order is time order.
const PAYMENT = `account = ? AND kind = 'subscription' AND json_extract(data, '$.next_payment_at') IS NOT NULL`;
const CANCEL = `account = ? AND kind = 'subscription' AND json_extract(data, '$.status') <> 'canceled' AND json_extract(data, '$.cancel_at') IS NOT NULL`;

/** The billing engine's indexed questions over stored subscriptions. */
export class BillingQueries {
  constructor(private readonly db: Database) {}

  /** The earliest next_payment_at of any subscription (an instant). */
  nextPaymentAt(account: string): string | undefined {
    return this.earliest(PAYMENT, 'next_payment_at', account);
  }

  /** The earliest cancel_at of a subscription not yet canceled (a date). */
  nextCancelAt(account: string): string | undefined {
    return this.earliest(CANCEL, 'cancel_at', account);
  }

  /** Subscriptions whose next payment is due at or before `instant`, in due order then creation order. */
  paymentsDue(account: string, instant: string): Subscription[] {
    return this.upTo(PAYMENT, 'next_payment_at', account, instant);
  }

  /** Running subscriptions whose cancel_at is on or before `date`, in due order then creation order. */
  cancelsDue(account: string, date: string): Subscription[] {
    return this.upTo(CANCEL, 'cancel_at', account, date);
  }

  private earliest(where: string, field: string, account: string): string | undefined {
    return this.db.get<{ at: string }>(
      `SELECT json_extract(data, '$.${field}') AS at FROM objects WHERE ${where} ORDER BY json_extract(data, '$.${field}') LIMIT 1`,
      account,
    )?.at;
  }

  private upTo(where: string, field: string, account: string, bound: string): Subscription[] {
    return this.db
      .all<{ data: string }>(
        `SELECT data FROM objects WHERE ${where} AND json_extract(data, '$.${field}') <= ? ORDER BY json_extract(data, '$.${field}'), seq`,
        account, bound,
      )
      .map((row) => JSON.parse(row.data) as Subscription);
  }
}
