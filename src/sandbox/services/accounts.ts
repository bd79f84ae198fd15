import { ApiError } from '../../domain/errors.js';
import type { AccountCreate } from '../../domain/test-helpers.js';
import { type Account, newApiKey } from '../store/accounts.js';
import type { ServiceContext } from './context.js';

/**
 * Another account of this sandbox, live at once, its clock at `clockStart`. The key
 * (the one given, or a new one) is returned to its creator once.
 */
export function createAccount(ctx: ServiceContext, body: AccountCreate, clockStart: string): { account: Account; apiKey: string } {
  if (body.account !== undefined && ctx.store.accounts.exists(body.account)) {
    throw new ApiError(409, 'invalid_state', `Account ${body.account} already exists.`);
  }
  // A key names one account: the one a request is made for is found by it.
  if (body.api_key !== undefined && ctx.store.accounts.byKey(body.api_key) !== undefined) {
    throw new ApiError(409, 'invalid_state', 'Another account of this sandbox already has this api_key: each account needs a key of its own (leave it out for a new one).', { param: 'api_key' });
  }
  const apiKey = body.api_key ?? newApiKey();
  return { account: ctx.store.accounts.upsert({ id: body.account, apiKey, clockNow: clockStart }), apiKey };
}

/**
 * Erases the account's objects, events, deliveries and cursors; its clock goes back to
 * `clockStart`. Its connected readers were erased with it: once that commits they are
 * told to connect again, and register anew (else they would stay online as readers the
 * account no longer has).
 */
export function resetAccount(ctx: ServiceContext, clockStart: string): void {
  const account = ctx.account.id;
  ctx.store.resetAccount(account, clockStart);
  ctx.afterCommit(() => ctx.env.readers.dropAccount(account, 'the account was reset: connect again to register'));
}
