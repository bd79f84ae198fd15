import { AccountStore } from './accounts.js';
import { BillingQueries } from './billing.js';
import { Database } from './db.js';
import { IdempotencyStore } from './idempotency.js';
import { ObjectStore } from './objects.js';
import { DeliveryStore } from '../events/deliveries.js';
import { ListenCursors } from '../events/listen-cursors.js';
import { EventLog } from '../events/log.js';

/** Everything the sandbox keeps, over one database. */
export class Store {
  readonly db: Database;
  readonly accounts: AccountStore;
  readonly objects: ObjectStore;
  readonly events: EventLog;
  readonly idempotency: IdempotencyStore;
  readonly billing: BillingQueries;
  readonly deliveries: DeliveryStore;
  readonly listenCursors: ListenCursors;

  constructor(file: string) {
    this.db = new Database(file);
    this.accounts = new AccountStore(this.db);
    this.objects = new ObjectStore(this.db);
    this.events = new EventLog(this.db);
    this.idempotency = new IdempotencyStore(this.db);
    this.billing = new BillingQueries(this.db);
    this.deliveries = new DeliveryStore(this.db);
    this.listenCursors = new ListenCursors(this.db);
  }

  /** Erases an account's objects, events, deliveries, cursors and idempotency records; keeps its keys. */
  resetAccount(account: string, clockNow: string): void {
    this.db.transaction(() => {
      this.objects.clear(account);
      this.events.clear(account);
      this.idempotency.clear(account);
      this.deliveries.clear(account);
      this.listenCursors.clear(account);
      this.accounts.setClockNow(account, clockNow);
    });
  }

  close(): void {
    this.db.close();
  }
}
