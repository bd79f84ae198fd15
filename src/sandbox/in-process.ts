import { createClient } from '../client/resources.js';
import type { Event } from '../domain/events.js';
import { INSTANT_RULE } from '../domain/common.js';
import { ClockAdvance, clockTarget, type TestClockObject } from '../domain/test-helpers.js';
import type { Sandbox } from './sandbox.js';
import { buildServer, listen } from './server.js';
import { newApiKey } from './store/accounts.js';

/** `pay/testing`: the sandbox in an app's own test process. */
export interface StartSandboxOptions {
  /** SQLite file to keep everything in (reopened as it was left); in memory when omitted. */
  db?: string;
  /** Where the test clock starts: a date (00:00:00Z of it) or a date-time with Z or an offset; the real time when omitted. */
  clock?: string;
  /** The account's id (acct_…) and key; generated when omitted. Give both to reopen an account of a `db` file. */
  account?: string;
  apiKey?: string;
  /** Loopback port; 0, the default, picks a free one. */
  port?: number;
  /** Multiplies the webhook endpoints' retry schedule (1 s, 5 s, 30 s…): 0.001 makes its seconds milliseconds. */
  webhookRetryScale?: number;
  /** Each delivery attempt's whole time (10 s by default). */
  webhookTimeoutMs?: number;
  /** How often listen tunnels and terminal readers are pinged; a silent one is dropped. */
  heartbeatMs?: { listen?: number; readers?: number };
  /** Requests per second per account before 429 `rate_limited` (to test your back-off); unlimited when omitted. */
  rateLimit?: number;
}

export interface TestSandbox {
  /** e.g. http://127.0.0.1:40123 */
  baseUrl: string;
  account: string;
  apiKey: string;
  /** The auth headers, for requests of your own (`pay-account`, `pay-api-key`). */
  headers: Record<string, string>;
  /** What makes `pay` and `createClient()` use this sandbox: spread it into a child process's env. */
  env: { PAY_BASE_URL: string; PAY_ACCOUNT: string; PAY_API_KEY: string };
  /** The test clock's now (ISO 8601). */
  now(): Promise<string>;
  /** Moves the test clock forward, running every payment and cancellation that falls due, in order. */
  advanceClock(advance: { to: string } | { days: number }): Promise<TestClockObject>;
  /** The account's events, oldest first; `type` may be a family (`payment_intent.*`). */
  events(filter?: { type?: string }): Promise<Event[]>;
  /** Stops the server and closes the database (once, however often called). */
  close(): Promise<void>;
}

/** Starts the sandbox service in this process, on a free loopback port. */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<TestSandbox> {
  return (await startInProcess(options)).handle;
}

/** startSandbox, and the service behind it for the project's own tests (`pay/testing` exports only startSandbox). */
export async function startInProcess(options: StartSandboxOptions = {}): Promise<{ handle: TestSandbox; sandbox: Sandbox }> {
  let clock: string | undefined;
  if (options.clock !== undefined) {
    const start = ClockAdvance.safeParse({ to: options.clock });
    if (!start.success) throw new TypeError(`startSandbox: clock ${INSTANT_RULE}, got '${options.clock}'.`);
    clock = clockTarget(start.data, '');
  }
  const server = await buildServer({
    db: options.db ?? ':memory:',
    clock,
    headerPrefix: 'pay',
    webhooks: { retryScale: options.webhookRetryScale, timeoutMs: options.webhookTimeoutMs },
    listenHeartbeatMs: options.heartbeatMs?.listen,
    readerHeartbeatMs: options.heartbeatMs?.readers,
    rateLimit: options.rateLimit,
  });
  const { app, sandbox } = server;
  const apiKey = options.apiKey ?? newApiKey();
  const account = sandbox.addAccount({ id: options.account, apiKey }).id;
  const address = await listen(server, { port: options.port ?? 0, host: '127.0.0.1' });
  const baseUrl = new URL(address).origin;
  const client = createClient({ baseUrl, account, apiKey });
  let closed: Promise<void> | undefined;
  const handle: TestSandbox = {
    baseUrl,
    account,
    apiKey,
    headers: { 'pay-account': account, 'pay-api-key': apiKey },
    env: { PAY_BASE_URL: baseUrl, PAY_ACCOUNT: account, PAY_API_KEY: apiKey },
    now: async () => (await client.testHelpers.clock()).now,
    // A year of billing is one request: no timeout.
    advanceClock: (advance) => client.testHelpers.clockAdvance(advance, { timeoutMs: 0 }),
    async events(filter = {}) {
      const events: Event[] = [];
      for (let after: string | undefined; ; ) {
        const page = await client.events.list({ limit: 100, starting_after: after, ...filter });
        events.push(...page.data);
        if (!page.has_more || page.data.length === 0) return events.reverse();
        after = page.data.at(-1)!.id;
      }
    },
    close() {
      closed ??= client.close().then(() => app.close());
      return closed;
    },
  };
  return { handle, sandbox };
}
