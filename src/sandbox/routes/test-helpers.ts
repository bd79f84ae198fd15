import type { FastifyInstance } from 'fastify';
import { clockTarget, type TestClockObject } from '../../domain/test-helpers.js';
import { apiRoute } from '../pipeline.js';
import type { Sandbox } from '../sandbox.js';
import { createAccount, resetAccount } from '../services/accounts.js';
import { presentOnReader } from '../services/reader-actions.js';

/** Sandbox-only helpers: the test clock, extra accounts, reset, a card presented on a reader. */
export function testHelperRoutes(app: FastifyInstance, sandbox: Sandbox): void {
  const clockOf = (account: string): TestClockObject => ({ object: 'test_clock', now: sandbox.clock.now(account) });

  apiRoute(app, sandbox, 'test_helpers.clock', {}, (ctx) => clockOf(ctx.account.id));

  // The advance commits its steps itself, a batch at a time (TestClock), never all in one
  // transaction. A retry of one a crash cut short (same key, same body) goes on to its
  // target: `days` counted again from where it stopped would run cycles nobody asked for.
  apiRoute(app, sandbox, 'test_helpers.clock_advance', { ownTransactions: true }, async (ctx, { body, idempotency }) => {
    const to = sandbox.clock.resumable(ctx.account.id, idempotency) ?? clockTarget(body, ctx.now);
    await sandbox.clock.advance((now) => sandbox.context(ctx.account, now), to, idempotency);
    return clockOf(ctx.account.id);
  });

  // The new key is returned to its creator once, as with webhook secrets.
  apiRoute(app, sandbox, 'test_helpers.accounts_create', { shownOnce: 'api_key' }, (ctx, { body }) => {
    const { account, apiKey } = createAccount(ctx, body, sandbox.clockStart());
    const clock = clockOf(account.id);
    return { object: 'account', id: account.id, created: clock.now, livemode: false, api_key: apiKey, clock };
  });

  apiRoute(app, sandbox, 'test_helpers.reset', {}, (ctx) => {
    sandbox.clock.assertIdle(ctx.account.id);
    resetAccount(ctx, sandbox.clockStart());
    return { object: 'reset', account: ctx.account.id, clock: clockOf(ctx.account.id) };
  });

  apiRoute(app, sandbox, 'test_helpers.reader_present', {}, (ctx, { params, body }) => presentOnReader(ctx, params.id!, body));
}
