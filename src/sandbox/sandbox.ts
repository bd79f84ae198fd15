import { TestClock, isoNow } from './clock.js';
import type { DeliveryTiming } from './events/delivery.js';
import { ReaderConnections } from './hub/readers.js';
import { RateLimiter } from './rate-limit.js';
import { billing } from './services/billing.js';
import { ServiceContext } from './services/context.js';
import type { Account } from './store/accounts.js';
import { Store } from './store/index.js';

export interface SandboxOptions {
  /** SQLite file, or ':memory:'. */
  db: string;
  /** Fixed start of new accounts' clocks (ISO instant); the real time otherwise. */
  clock?: string | undefined;
  /** The service's header prefix: `<prefix>-account`, `<prefix>-api-key`. */
  headerPrefix: string;
  /** Webhook delivery timing; tests shorten the retry schedule with `retryScale`. */
  webhooks?: Partial<DeliveryTiming> | undefined;
  /** How often listen tunnels are pinged. */
  listenHeartbeatMs?: number | undefined;
  /** How often connected terminal readers are pinged (a silent one goes offline). */
  readerHeartbeatMs?: number | undefined;
  /** API requests a second per account (429 beyond); no limit when absent. */
  rateLimit?: number | undefined;
}

/** The sandbox service without HTTP: store, test clock, and per-request contexts. */
export class Sandbox {
  readonly store: Store;
  readonly clock: TestClock;
  /** Terminal readers connected right now; the reader hub fills it. */
  readonly readers = new ReaderConnections();
  readonly rateLimiter: RateLimiter | undefined;

  constructor(readonly options: SandboxOptions) {
    this.store = new Store(options.db);
    this.clock = new TestClock(this.store);
    this.rateLimiter = options.rateLimit === undefined ? undefined : new RateLimiter(options.rateLimit);
    // Everything that comes due with the test clock is registered here.
    this.clock.register(billing);
  }

  context(account: Account, now = this.clock.now(account.id)): ServiceContext {
    return new ServiceContext(this.store, account, now, this.readers);
  }

  /** Adds an account (or re-keys an existing one); its clock starts at `--clock` or now. */
  addAccount(input: { id?: string | undefined; apiKey: string }): Account {
    return this.store.db.transaction(() => this.store.accounts.upsert({ ...input, clockNow: this.options.clock ?? isoNow() }));
  }

  close(): void {
    this.store.close();
  }
}
