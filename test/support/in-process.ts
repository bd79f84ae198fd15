import { buildServer } from '../../src/sandbox/server.js';

/** A sandbox app in this process (fastify inject, in-memory database), for unit tests of routes and services. */
export async function inProcessSandbox(options: { clock?: string } = {}) {
  const { app, sandbox } = await buildServer({ db: ':memory:', clock: options.clock ?? '2030-01-15T00:00:00Z', headerPrefix: 'pay' });
  const apiKey = 'sk_test_inprocess_abcdefghijklmnopqrstuvwxyz';
  const account = sandbox.addAccount({ id: 'acct_inprocess', apiKey });
  const headers = { 'pay-account': account.id, 'pay-api-key': apiKey };
  async function call(method: string, url: string, body?: unknown, extraHeaders: Record<string, string> = {}) {
    const res = await app.inject({
      method: method as 'GET',
      url,
      headers: { ...headers, ...extraHeaders, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    return { status: res.statusCode, body: res.body ? res.json() : undefined, headers: res.headers };
  }
  /** A service context of the account at the clock's now (for seams with no HTTP route). */
  const context = () => sandbox.context(account);
  /** Rows of every table, to prove a rejected request changed nothing. */
  function counts() {
    const db = sandbox.store.db;
    const count = (table: string) => db.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}`)!.n;
    return { objects: count('objects'), events: count('events'), idempotency: count('idempotency') };
  }
  return { app, sandbox, account, apiKey, call, context, counts, close: () => app.close() };
}
