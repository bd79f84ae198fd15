import { nowInstant, realScheduler, type Scheduler } from '../infra/time.js';
import { TestClock } from './clock.js';
import type { DeliveryTiming } from './events/delivery.js';
import { RateLimiter } from './rate-limit.js';
import { billing } from './services/billing.js';
import { NO_SINKS, ServiceContext, type ServiceEnv, type ServiceSinks } from './services/context.js';
import { ReaderConnections } from './services/reader-links.js';
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

/**
 * The sandbox service without HTTP: store, test clock, and per-request contexts. What
 * the services do is told to `sinks` (the app factory connects the hubs and the delivery
 * worker); without them nothing is told.
 */
export class Sandbox {
  readonly store: Store;
  readonly clock: TestClock;
  /** Terminal readers connected right now; the reader hub fills it. */
  readonly readers = new ReaderConnections();
  readonly rateLimiter: RateLimiter | undefined;
  private readonly env: ServiceEnv;

  constructor(
    readonly options: SandboxOptions,
    sinks: ServiceSinks = NO_SINKS,
    readonly scheduler: Scheduler = realScheduler,
  ) {
    this.store = new Store(options.db);
    this.clock = new TestClock(this.store, scheduler);
    this.rateLimiter = options.rateLimit === undefined ? undefined : new RateLimiter(options.rateLimit);
    this.env = { readers: this.readers, sinks, scheduler };
    // Everything that comes due with the test clock is registered here.
    this.clock.register(billing);
  }

  context(account: Account, now = this.clock.now(account.id)): ServiceContext {
    return new ServiceContext(this.store, account, now, this.env);
  }

  /** Where a new (or reset) account's clock starts: `--clock`, else the real time. */
  clockStart(): string {
    return this.options.clock ?? nowInstant(this.scheduler);
  }

  /** Adds an account (or re-keys an existing one); its clock starts at clockStart(). */
  addAccount(input: { id?: string | undefined; apiKey: string }): Account {
    return this.store.db.transaction(() => this.store.accounts.upsert({ ...input, clockNow: this.clockStart() }));
  }

  close(): void {
    this.store.close();
  }
}
