import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, BODY_LIMIT, type SandboxServer } from './server.js';

let server: SandboxServer;
const KEY_A = 'sk_test_pipeline_a_abcdefghijklmnop';
const KEY_B = 'sk_test_pipeline_b_abcdefghijklmnop';
const auth = (account: string, key: string) => ({ 'pay-account': account, 'pay-api-key': key });
const A = auth('acct_a', KEY_A);
const B = auth('acct_b', KEY_B);

beforeAll(async () => {
  server = await buildServer({ db: ':memory:', clock: '2030-01-15T00:00:00Z', headerPrefix: 'pay' });
  server.sandbox.addAccount({ id: 'acct_a', apiKey: KEY_A });
  server.sandbox.addAccount({ id: 'acct_b', apiKey: KEY_B });
});
afterAll(async () => server.app.close());

async function call(method: 'GET' | 'POST', url: string, options: { headers?: Record<string, string>; body?: unknown; raw?: string } = {}) {
  const payload = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const res = await server.app.inject({
    method,
    url,
    headers: { ...A, ...(payload === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
    payload,
  });
  return { status: res.statusCode, body: res.body ? res.json() : undefined, headers: res.headers };
}

/** Every row of every table, to show a request changed nothing. */
function snapshot(): string {
  const db = server.sandbox.store.db;
  return JSON.stringify(['accounts', 'objects', 'events', 'idempotency'].map((t) => db.all(`SELECT * FROM ${t} ORDER BY 1, 2`)));
}

describe('idempotency', () => {
  it('replays the first response to the same key and body, creating nothing more', async () => {
    const headers = { 'idempotency-key': 'key-replay-1' };
    const first = await call('POST', '/v1/customers', { headers, body: { email: 'once@example.com' } });
    const before = snapshot();
    const again = await call('POST', '/v1/customers', { headers, body: { email: 'once@example.com' } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(snapshot()).toBe(before);
  });

  it('refuses the same key with a different body or path: 422, nothing changed', async () => {
    const headers = { 'idempotency-key': 'key-reuse-1' };
    await call('POST', '/v1/customers', { headers, body: { email: 'first@example.com' } });
    const before = snapshot();
    const body = await call('POST', '/v1/customers', { headers, body: { email: 'second@example.com' } });
    expect(body.status).toBe(422);
    expect(body.body.error).toMatchObject({ type: 'idempotency_error', code: 'idempotency_key_reused' });
    const path = await call('POST', '/v1/test-helpers/reset', { headers });
    expect(path.status).toBe(422);
    expect(snapshot()).toBe(before);
  });

  it('a key used before is 422 with any other body, one it would refuse as invalid included', async () => {
    const headers = { 'idempotency-key': 'key-reuse-invalid' };
    await call('POST', '/v1/customers', { headers, body: { email: 'valid@example.com' } });
    const before = snapshot();
    for (const body of [{ email: 'not an email' }, { nickname: 'x' }, []]) {
      const again = await call('POST', '/v1/customers', { headers, body });
      expect([again.status, again.body.error.code], JSON.stringify(body)).toEqual([422, 'idempotency_key_reused']);
    }
    expect(snapshot()).toBe(before);
  });

  it('the same body is the same JSON value: its fields in another order (or spaced otherwise) replay', async () => {
    const headers = { 'idempotency-key': 'key-reordered' };
    const first = await call('POST', '/v1/customers', { headers, raw: '{"email":"order@example.com","metadata":{"a":"1","b":"2"}}' });
    const before = snapshot();
    const again = await call('POST', '/v1/customers', { headers, raw: '{ "metadata": { "b": "2", "a": "1" }, "email": "order@example.com" }' });
    expect([again.status, again.headers['idempotent-replayed'], again.body]).toEqual([200, 'true', first.body]);
    expect(snapshot()).toBe(before);
  });

  it('no body at all is the body {} where the operation takes one as such: the same key replays, either way round', async () => {
    for (const [key, first, second] of [['key-nobody-1', undefined, '{}'], ['key-nobody-2', '{}', undefined]] as const) {
      const intent = await call('POST', '/v1/payment-intents', { body: { amount: 100, currency: 'usd', payment_method_types: ['card'] } });
      const url = `/v1/payment-intents/${intent.body.id}/cancel`;
      const canceled = await call('POST', url, { headers: { 'idempotency-key': key }, raw: first });
      expect(canceled.status).toBe(200);
      const again = await call('POST', url, { headers: { 'idempotency-key': key }, raw: second });
      expect([again.status, again.headers['idempotent-replayed'], again.body], key).toEqual([200, 'true', canceled.body]);
    }
    // A create must say what it creates: no body is refused there, never a replay of {}.
    await call('POST', '/v1/customers', { headers: { 'idempotency-key': 'key-nobody-3' }, raw: '{}' });
    const bare = await call('POST', '/v1/customers', { headers: { 'idempotency-key': 'key-nobody-3' } });
    expect(bare.status).not.toBe(200);
  });

  it('an empty key, or one that is not printable ASCII, is refused (400 naming the header) and recorded nowhere', async () => {
    // A script's unset $KEY sends an empty header: taken as a key, its second payment was a replay of its first.
    const before = snapshot();
    for (const key of ['', 'caf\u00e9', 'tab\there']) {
      const res = await call('POST', '/v1/customers', { headers: { 'idempotency-key': key }, body: { email: 'first@example.com' } });
      expect([res.status, res.body.error?.code, res.body.error?.param], JSON.stringify(key)).toEqual([400, 'parameter_invalid', 'Idempotency-Key']);
      expect(res.body.error.message).toContain('printable ASCII');
    }
    expect(snapshot()).toBe(before);
  });

  it('a key longer than 255 characters is refused (400 naming the header and the bound) and recorded nowhere; 255 is taken', async () => {
    // Unbounded, a key up to the 16 KB header limit was stored with every record and echoed in its 422.
    const before = snapshot();
    const long = await call('POST', '/v1/customers', { headers: { 'idempotency-key': 'k'.repeat(256) }, body: { email: 'long@example.com' } });
    expect([long.status, long.body.error?.code, long.body.error?.param]).toEqual([400, 'parameter_invalid', 'Idempotency-Key']);
    expect(long.body.error.message).toContain('255');
    expect(snapshot()).toBe(before);
    const longest = await call('POST', '/v1/customers', { headers: { 'idempotency-key': 'k'.repeat(255) }, body: { email: 'long@example.com' } });
    expect(longest.status).toBe(200);
  });

  it('keys are per account', async () => {
    const headers = { 'idempotency-key': 'key-shared' };
    const a = await call('POST', '/v1/customers', { headers, body: { email: 'a@example.com' } });
    const b = await call('POST', '/v1/customers', { headers: { ...headers, ...B }, body: { email: 'b@example.com' } });
    expect(b.status).toBe(200);
    expect(b.body.id).not.toBe(a.body.id);
  });

  it('a key is forgotten after 24 hours of test-clock time', async () => {
    const c = auth('acct_clock', 'sk_test_pipeline_clock_abcdefghij');
    server.sandbox.addAccount({ id: 'acct_clock', apiKey: c['pay-api-key'] });
    const headers = { ...c, 'idempotency-key': 'key-expiring' };
    const first = await call('POST', '/v1/customers', { headers, body: {} });
    await call('POST', '/v1/test-helpers/clock/advance', { headers: c, body: { days: 2 } });
    const later = await call('POST', '/v1/customers', { headers, body: {} });
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(later.body.id).not.toBe(first.body.id);
  });

  it('a record is deleted once the test clock moves a day past it, and kept until then', async () => {
    const c = auth('acct_forget', 'sk_test_pipeline_forget_abcdefghij');
    server.sandbox.addAccount({ id: 'acct_forget', apiKey: c['pay-api-key'] });
    const stored = (key: string) => server.sandbox.store.db.all('SELECT key FROM idempotency WHERE key = ?', key).length;
    const headers = { ...c, 'idempotency-key': 'key-forgotten' };
    const first = await call('POST', '/v1/customers', { headers, body: {} });
    const advance = (to: string) => call('POST', '/v1/test-helpers/clock/advance', { headers: c, body: { to } });
    expect((await advance('2030-01-15T23:59:59.999Z')).status).toBe(200);
    expect(stored('key-forgotten')).toBe(1);
    const replay = await call('POST', '/v1/customers', { headers, body: {} });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.id).toBe(first.body.id);
    expect((await advance('2030-01-16T00:00:00.000Z')).status).toBe(200);
    expect(stored('key-forgotten')).toBe(0);
    // Another account's records wait for its own clock.
    expect(stored('key-shared')).toBe(2);
  });
});

describe('authentication (DESIGN.md section 4)', () => {
  it('401 without a key or with an unknown one, 403 with another account\'s key', async () => {
    const missing = await call('GET', '/v1/customers', { headers: { 'pay-api-key': '' } });
    expect(missing).toMatchObject({ status: 401, body: { error: { type: 'authentication_error', code: 'api_key_missing' } } });
    const unknown = await call('GET', '/v1/customers', { headers: { 'pay-api-key': 'sk_test_unknown_0123456789' } });
    expect(unknown).toMatchObject({ status: 401, body: { error: { code: 'api_key_invalid' } } });
    const mismatch = await call('GET', '/v1/customers', { headers: { 'pay-account': 'acct_a', 'pay-api-key': KEY_B } });
    expect(mismatch).toMatchObject({ status: 403, body: { error: { type: 'permission_error', code: 'account_mismatch' } } });
  });

  it('403 with a key and an account header that holds no account id (the key itself, say): the header is not echoed', async () => {
    for (const account of [KEY_B, `${KEY_B}x`, 'secret stuff', 'acct_a'.padEnd(60, 'x')]) {
      const mismatch = await call('GET', '/v1/customers', { headers: { 'pay-account': account, 'pay-api-key': KEY_B } });
      expect(mismatch).toMatchObject({ status: 403, body: { error: { type: 'permission_error', code: 'account_mismatch' } } });
      const message: string = mismatch.body.error.message;
      if (account.startsWith('acct_')) expect(message).toContain("account 'acct_a");
      else expect(message).toBe("The API key does not belong to the pay-account header's value, which is not an account id (acct_…): send the merchant account id there, not the key.");
      expect(message).not.toContain(KEY_B.slice(0, 16));
    }
  });

  it('authenticates before reading the body: no valid key is 401 whatever the body, not JSON or too large', async () => {
    const noKey = { 'pay-api-key': '' };
    expect(await call('POST', '/v1/customers', { headers: noKey, raw: '{not json' })).toMatchObject({ status: 401, body: { error: { code: 'api_key_missing' } } });
    expect(await call('POST', '/v1/customers', { headers: noKey, raw: JSON.stringify({ email: 'x'.repeat(BODY_LIMIT) }) })).toMatchObject({ status: 401 });
    const unknownKey = { 'pay-api-key': 'sk_test_unknown_0123456789' };
    expect(await call('POST', '/v1/customers', { headers: unknownKey, raw: '[' })).toMatchObject({ status: 401, body: { error: { code: 'api_key_invalid' } } });
    // With a valid key, the body is read and judged as before.
    expect(await call('POST', '/v1/customers', { raw: '{not json' })).toMatchObject({ status: 400, body: { error: { code: 'invalid_json' } } });
  });

  it('one account never sees another\'s objects', async () => {
    const created = await call('POST', '/v1/customers', { body: { email: 'mine@example.com' } });
    expect((await call('GET', `/v1/customers/${created.body.id}`, { headers: B })).status).toBe(404);
    const list = await call('GET', '/v1/customers?limit=100', { headers: B });
    expect(list.body.data.map((c: { id: string }) => c.id)).not.toContain(created.body.id);
  });
});

describe('customers and the event log', () => {
  it('writes customer.created in the same transaction', async () => {
    const created = await call('POST', '/v1/customers', { body: { email: 'event@example.com', metadata: { plan: 'gold' } } });
    const [event] = server.sandbox.store.events.list('acct_a', { type: 'customer.created', limit: 1 }).data;
    expect(event).toMatchObject({ object: 'event', type: 'customer.created', created: '2030-01-15T00:00:00Z', data: { object: created.body } });
  });

  it('pages newest first with a cursor, and names a bad cursor or limit', async () => {
    const headers = auth('acct_pages', 'sk_test_pipeline_pages_abcdefghij');
    server.sandbox.addAccount({ id: 'acct_pages', apiKey: headers['pay-api-key'] });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await call('POST', '/v1/customers', { headers, body: {} })).body.id);
    const first = await call('GET', '/v1/customers?limit=2', { headers });
    expect(first.body).toMatchObject({ object: 'list', has_more: true });
    expect(first.body.data.map((c: { id: string }) => c.id)).toEqual([ids[2], ids[1]]);
    const second = await call('GET', `/v1/customers?limit=2&starting_after=${ids[1]}`, { headers });
    expect(second.body).toMatchObject({ has_more: false, data: [{ id: ids[0] }] });
    expect((await call('GET', '/v1/customers?starting_after=cus_nope', { headers })).body.error).toMatchObject({ code: 'parameter_invalid', param: 'starting_after' });
    expect((await call('GET', '/v1/customers?limit=101', { headers })).body.error).toMatchObject({ code: 'parameter_invalid', param: 'limit' });
    // Decimal digits only: not what JavaScript's Number() would also read (hex, exponents, spaces).
    for (const limit of ['0x2', '2e0', '%202', '2.0']) {
      expect((await call('GET', `/v1/customers?limit=${limit}`, { headers })).body.error, limit).toMatchObject({ code: 'parameter_invalid', param: 'limit', message: expect.stringContaining('must be an integer from 1 to 100') });
    }
  });

  it('a query parameter given twice is told to be given once, not a rule both values meet', async () => {
    for (const [url, param] of [
      ['/v1/customers?limit=2&limit=3', 'limit'],
      ['/v1/customers?email=a@example.com&email=a@example.com', 'email'],
      ['/v1/subscriptions?status=active&status=paused', 'status'],
      ['/v1/events?type=charge.succeeded&type=charge.refunded', 'type'],
    ] as const) {
      const res = await call('GET', url);
      expect(res.status, url).toBe(400);
      expect(res.body.error, url).toEqual({ type: 'invalid_request_error', code: 'parameter_invalid', param, message: `Invalid ${param}: give it once; it was given 2 times.` });
    }
    // One the operation does not take is unknown, however often it is given.
    expect((await call('GET', '/v1/customers?foo=1&foo=2')).body.error).toMatchObject({ code: 'parameter_unknown', param: 'foo' });
  });
});

describe('a rejected request changes nothing (acceptance 4)', () => {
  it.each([
    ['a wrong type', { body: { email: 42 } }, 400, 'parameter_invalid', 'email'],
    ['an unknown field', { body: { email: 'a@example.com', nickname: 'x' } }, 400, 'parameter_unknown', 'nickname'],
    ['a bad nested value', { body: { metadata: { plan: 1 } } }, 400, 'parameter_invalid', 'metadata.plan'],
    ['malformed JSON', { raw: '{"email": ' }, 400, 'invalid_json', 'body'],
    ['a body that is not an object', { raw: '[1]' }, 400, 'parameter_invalid', 'body'],
    ['an oversized body', { raw: JSON.stringify({ email: 'a@example.com', first_name: 'x'.repeat(BODY_LIMIT) }) }, 413, 'body_too_large', 'body'],
  ] as const)('%s: %i %s naming %s', async (_name, request, status, code, param) => {
    const before = snapshot();
    const res = await call('POST', '/v1/customers', { ...request, headers: { 'idempotency-key': `bad-${code}-${param}` } });
    expect(res.status).toBe(status);
    expect(res.body.error).toMatchObject({ code, param });
    expect(res.body.error.message.length).toBeGreaterThan(10);
    expect(snapshot()).toBe(before);
  });

  it('a body that is not UTF-8 (Latin-1, as labelled) is refused, not stored with its letters replaced by U+FFFD', async () => {
    const before = snapshot();
    for (const contentType of ['application/json', 'application/json; charset=iso-8859-1']) {
      const res = await server.app.inject({ method: 'POST', url: '/v1/customers', headers: { ...A, 'content-type': contentType }, payload: Buffer.from('{"first_name":"Jos\xe9"}', 'latin1') });
      expect(res.statusCode, contentType).toBe(400);
      expect(res.json().error, contentType).toEqual({ type: 'invalid_request_error', code: 'invalid_json', param: 'body', message: 'The request body must be JSON encoded in UTF-8 (RFC 8259 section 8.1), and it is not valid UTF-8: send it UTF-8 encoded, not Latin-1 or UTF-16.' });
    }
    expect(snapshot()).toBe(before);
    // The same name in UTF-8 is taken as it is.
    const utf8 = await server.app.inject({ method: 'POST', url: '/v1/customers', headers: { ...A, 'content-type': 'application/json' }, payload: Buffer.from('{"first_name":"José"}', 'utf8') });
    expect(utf8.json()).toMatchObject({ object: 'customer', first_name: 'José' });
  });

  it('a query parameter of an operation that takes none is unknown: 400 naming it', async () => {
    const before = snapshot();
    const created = await call('POST', '/v1/customers?email=q@example.com', { body: {} });
    expect(created).toMatchObject({ status: 400, body: { error: { code: 'parameter_unknown', param: 'email' } } });
    const read = await call('GET', '/v1/test-helpers/clock?limit=abc');
    expect(read).toMatchObject({ status: 400, body: { error: { code: 'parameter_unknown', param: 'limit' } } });
    expect(snapshot()).toBe(before);
  });

  it('a missing required field names it', async () => {
    const before = snapshot();
    const res = await call('POST', '/v1/test-helpers/clock/advance', { body: {} });
    expect(res).toMatchObject({ status: 400, body: { error: { param: 'to' } } });
    expect(snapshot()).toBe(before);
  });

  it('a failure inside a transaction rolls back everything it wrote', () => {
    const account = server.sandbox.store.accounts.byKey(KEY_A)!;
    const before = snapshot();
    expect(() =>
      server.sandbox.store.db.transaction(() => {
        const ctx = server.sandbox.context(account);
        ctx.emit('customer.created', ctx.create('customer', { email: null }));
        throw new Error('late failure');
      }),
    ).toThrow('late failure');
    expect(snapshot()).toBe(before);
  });

  it('every failure has the error body, unknown routes included', async () => {
    const res = await call('GET', '/v1/nothing-here');
    expect(res).toMatchObject({ status: 404, body: { error: { type: 'not_found_error', code: 'route_missing' } } });
  });

  it('a path served with another method says which: attach is PUT (Stripe has POST), customers are not updated', async () => {
    const attach = await server.app.inject({ method: 'POST', url: '/v1/payment-methods/pm_AAAAAAAAAAAAAAAAAAAAAAAA/attach', headers: { ...A, 'content-type': 'application/json' }, payload: '{}' });
    expect(attach.statusCode).toBe(404);
    expect(attach.json().error).toEqual({ type: 'not_found_error', code: 'route_missing', message: 'No such route: POST /v1/payment-methods/{id}/attach. That path takes PUT.' });
    const update = await server.app.inject({ method: 'DELETE', url: '/v1/payment-intents/pi_1', headers: A });
    expect(update.json().error.message).toBe('No such route: DELETE /v1/payment-intents/{id}. That path takes GET or POST.');
    const activate = await server.app.inject({ method: 'PUT', url: '/v1/terminal-readers/activate', headers: A });
    expect(activate.json().error.message).toBe('No such route: PUT /v1/terminal-readers/activate. That path takes POST.');
    // A path no operation has is told as before, its echo clipped.
    expect((await call('GET', '/v1/nothing-here')).body.error.message).toBe('No such route: GET /v1/nothing-here.');
  });
});
