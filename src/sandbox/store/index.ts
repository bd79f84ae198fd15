import type { WebhookEndpoint } from '../../domain/webhook-endpoints.js';
import { AccountStore } from './accounts.js';
import { BillingQueries } from './billing.js';
import { CommittedCache } from './committed-cache.js';
import { Database } from './db.js';
import { DeliveryStore } from './deliveries.js';
import { EventLog } from './events.js';
import { IdempotencyStore } from './idempotency.js';
import { SandboxKeys } from './keys.js';
import { ListenCursors } from './listen-cursors.js';
import { ObjectStore } from './objects.js';
import { Shapes } from './shapes.js';

/** Everything the sandbox keeps, over one database. */
export class Store {
  readonly db: Database;
  /** The key file's key: card fingerprints, idempotency body MACs, sealed webhook secrets. */
  readonly keys: SandboxKeys;
  readonly accounts: AccountStore;
  readonly objects: ObjectStore;
  readonly events: EventLog;
  readonly idempotency: IdempotencyStore;
  readonly billing: BillingQueries;
  readonly deliveries: DeliveryStore;
  readonly listenCursors: ListenCursors;
  /** Every event asks which endpoints want it: each account's enabled webhook endpoints, kept as committed; writers of endpoints drop them. */
  readonly enabledEndpoints: CommittedCache<string, WebhookEndpoint[]>;

  constructor(file: string) {
    this.db = new Database(file);
    const { keys, created } = SandboxKeys.open(file);
    this.keys = keys;
    this.accounts = new AccountStore(this.db);
    this.objects = new ObjectStore(this.db, this.accounts, new Shapes(this.db));
    this.events = new EventLog(this.db, this.accounts, this.objects);
    this.idempotency = new IdempotencyStore(this.db, this.accounts, this.objects);
    this.billing = new BillingQueries(this.db, this.accounts, this.objects);
    this.deliveries = new DeliveryStore(this.db, keys);
    this.listenCursors = new ListenCursors(this.db);
    this.enabledEndpoints = new CommittedCache(this.db);
    const sealed = this.db.transaction(() => {
      // Bodies MAC'd with a key that is gone cannot be matched: their keys start afresh.
      if (created) {
        this.idempotency.clearAll();
        this.accounts.forgetClockAdvances();
      }
      return this.deliveries.sealPlainSecrets();
    });
    // What a migration or the sealing removed must not linger in free pages or the WAL.
    if (this.db.upgraded || sealed > 0) this.db.compact();
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
      this.accounts.setClockAdvance(account, null);
      this.enabledEndpoints.delete(account);
    });
  }

  close(): void {
    this.db.close();
  }
}
