import type { Subscription } from '../../domain/subscriptions.js';
import type { AccountStore } from './accounts.js';
import type { Database } from './db.js';
import type { ObjectStore } from './objects.js';

// The predicates repeat the partial indexes' WHERE clauses of migration 6 word for word:
// that is what lets SQLite use them. next_payment_at and cancel_at are UTC
// `YYYY-MM-DD…` strings, so text order is time order; only subscriptions have them.
const PAYMENT = 'account = ? AND next_payment_at IS NOT NULL';
const CANCEL = `account = ? AND cancel_at IS NOT NULL AND status <> 'canceled'`;

/** The billing engine's indexed questions over stored subscriptions. */
export class BillingQueries {
  constructor(
    private readonly db: Database,
    private readonly accounts: AccountStore,
    private readonly objects: ObjectStore,
  ) {}

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
    return this.db.get<{ at: string }>(`SELECT ${field} AS at FROM objects WHERE ${where} ORDER BY ${field} LIMIT 1`, this.accounts.keyOf(account))?.at;
  }

  private upTo(where: string, field: string, account: string, bound: string): Subscription[] {
    return this.db
      .all<{ data: string }>(
        `SELECT data FROM objects WHERE ${where} AND ${field} <= ? ORDER BY ${field}, seq`,
        this.accounts.keyOf(account), bound,
      )
      .map((row) => this.objects.decode<Subscription>(row.data));
  }
}
