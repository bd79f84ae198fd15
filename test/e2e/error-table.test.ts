import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ECHO_LIMIT, ERROR_TYPES } from '../../src/domain/errors.js';
import { startTestSandbox, type TestSandbox } from '../support/sandboxes.js';
import { baseEnv, runPay, startSandbox } from './harness.js';

// DESIGN section 4's error table, provoked status by status over real HTTP (node's own
// parser answers 414/431 before any route), and issue 9 item 6: whatever layer refuses,
// the answer is `{error: {type, code, message, param?}}` and echoes at most a short
// prefix of what it refuses.

let sb: TestSandbox;
let port: number;
const configDir = mkdtempSync(join(tmpdir(), 'pay-error-table-'));

beforeAll(async () => {
  sb = await startTestSandbox();
  port = Number(new URL(sb.baseUrl).port);
});
afterAll(async () => {
  await sb?.close();
  rmSync(configDir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: string;
  text: string;
  body: any;
}

/** One raw HTTP/1.1 exchange: what is sent is exactly what the test wrote. */
function raw(request: string, to = port): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect(to, '127.0.0.1');
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', text = ''] = data.split('\r\n\r\n', 2);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      resolve({ status, headers: head, text, body });
    });
    socket.end(request);
  });
}

const auth = () => `pay-account: ${sb.account}\r\npay-api-key: ${sb.apiKey}\r\n`;
const get = (path: string, headers = auth()) => raw(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}Connection: close\r\n\r\n`);
const post = (path: string, body: string, headers = '') =>
  raw(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth()}${headers}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);

/** The documented shape, the type of its status, and no run of the refused input longer than the echo limit. */
function expectErrorBody(answer: Answer, status: number, code: string | RegExp, refused = 'ZZZZ') {
  expect(answer.status, answer.text.slice(0, 300)).toBe(status);
  expect(answer.headers).toMatch(/content-type: application\/json/i);
  expect(Object.keys(answer.body)).toEqual(['error']);
  const { type, code: got, message, param, ...rest } = answer.body.error;
  expect(type).toBe(ERROR_TYPES[status as keyof typeof ERROR_TYPES]);
  expect(got).toMatch(code);
  expect(typeof message).toBe('string');
  expect(message.length).toBeGreaterThan(10);
  if (param !== undefined) expect(typeof param).toBe('string');
  expect(rest).toEqual({});
  expect(answer.text).not.toContain(refused.repeat(Math.ceil((ECHO_LIMIT + 1) / refused.length)).slice(0, ECHO_LIMIT + 1));
}

const long = (n: number) => 'Z'.repeat(n);

describe('every status of the error table, with its type', () => {
  it('400 invalid_request_error: a currency that is not ISO 4217, named by param', async () => {
    const answer = await post('/v1/payment-intents', JSON.stringify({ amount: 100, currency: 'qqq', payment_method_types: ['card'] }));
    expectErrorBody(answer, 400, 'parameter_invalid');
    expect(answer.body.error.param).toBe('currency');
  });

  it('401 authentication_error: no key', async () => {
    expectErrorBody(await get('/v1/customers', ''), 401, 'api_key_missing');
  });

  it('403 permission_error: a key with another account, the account echoed only as a prefix', async () => {
    const answer = await get('/v1/customers', `pay-account: acct_${long(500)}\r\npay-api-key: ${sb.apiKey}\r\n`);
    expectErrorBody(answer, 403, 'account_mismatch', 'Z');
  });

  it('404 not_found_error: an unknown id, and an unknown route, echoed only as a prefix', async () => {
    expectErrorBody(await get(`/v1/customers/cus_${long(90)}`), 404, 'resource_missing', 'Z');
    expectErrorBody(await get(`/v1/nothing-here/${long(90)}`), 404, 'route_missing', 'Z');
  });

  it('409 state_error: canceling a canceled intent', async () => {
    const intent = await sb.call('POST', '/v1/payment-intents', { amount: 100, currency: 'jpy', payment_method_types: ['card'] });
    expect(intent.status).toBe(200);
    await sb.call('POST', `/v1/payment-intents/${intent.body.id}/cancel`, {});
    expectErrorBody(await post(`/v1/payment-intents/${intent.body.id}/cancel`, '{}'), 409, 'invalid_state');
  });

  it('413 invalid_request_error: a body over the limit', async () => {
    expectErrorBody(await post('/v1/customers', JSON.stringify({ first_name: long(1_100_000) })), 413, 'body_too_large', 'Z');
  });

  it('414 invalid_request_error: an id of 3,000 characters', async () => {
    expectErrorBody(await get(`/v1/customers/cus_${long(3000)}`), 414, 'url_too_long', 'Z');
  });

  it('422 idempotency_error: a key reused with another body, the key echoed only as a prefix', async () => {
    const key = `Idempotency-Key: ${long(255)}\r\n`;
    expect((await post('/v1/customers', '{"email":"one@example.com"}', key)).status).toBe(200);
    expectErrorBody(await post('/v1/customers', '{"email":"two@example.com"}', key), 422, 'idempotency_key_reused', 'Z');
  });

  it('400 invalid_request_error: a control character in a header value, refused by node\'s HTTP parser, names the header', async () => {
    const answer = await post('/v1/customers', '{"email":"cc@example.com"}', 'Idempotency-Key: key\x01one\r\n');
    expectErrorBody(answer, 400, 'parameter_invalid');
    expect(answer.body.error.param).toBe('Idempotency-Key');
    expect(answer.body.error.message).toMatch(/^Invalid Idempotency-Key header: .*control character/);
    expect((await sb.call('GET', '/v1/customers?email=cc@example.com')).body.data).toEqual([]);
  });

  it('429 rate_limit_error: beyond the account\'s allowance (--rate-limit), with Retry-After', async () => {
    const limited = await startTestSandbox({ rateLimit: 1 });
    try {
      const request = `GET /v1/customers HTTP/1.1\r\nHost: 127.0.0.1\r\npay-account: ${limited.account}\r\npay-api-key: ${limited.apiKey}\r\nConnection: close\r\n\r\n`;
      // A burst of 1 refilled at 1 a second: 20 requests at once cannot all pass.
      const answers = await Promise.all(Array.from({ length: 20 }, () => raw(request, Number(new URL(limited.baseUrl).port))));
      const refused = answers.filter((a) => a.status === 429);
      expect(refused.length).toBeGreaterThan(0);
      expect(answers.filter((a) => a.status !== 429).every((a) => a.status === 200)).toBe(true);
      expectErrorBody(refused[0]!, 429, 'rate_limited');
      expect(refused[0]!.headers).toMatch(/^retry-after: [1-9]\d*$/im);
    } finally {
      await limited.close();
    }
    // The limit is per sandbox option: the table's own sandbox has none.
    expect((await get('/v1/customers')).status).toBe(200);
  });

  it('431 invalid_request_error: headers beyond the limit, answered before any route', async () => {
    expectErrorBody(await get('/v1/customers', `${auth()}X-Big: ${long(20_000)}\r\n`), 431, 'headers_too_large', 'Z');
  });

  it('414 invalid_request_error: a URL beyond the parser\'s limit, told apart from headers', async () => {
    expectErrorBody(await get(`/v1/customers?q=${long(20_000)}`), 414, 'url_too_long', 'Z');
  });

  it('500 api_error: an unexpected failure, its own message never shown to the client, but told on the sandbox\'s stderr (its log)', async () => {
    // A fault injected here, in the test: no shipped route exists to fail.
    const spy = vi.spyOn(sb.sandbox.store.objects, 'list').mockImplementation(() => {
      throw new Error(`disk on fire ${long(200)}`);
    });
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const answer = await get('/v1/customers');
      expectErrorBody(answer, 500, 'internal', 'Z');
      expect(answer.text).not.toContain('disk on fire');
      const told = stderr.mock.calls.map(([chunk]) => String(chunk)).join('');
      expect(told).toMatch(/^pay: GET \/v1\/customers failed \(500 internal\): Error: disk on fire Z+\n {4}at /);
    } finally {
      stderr.mockRestore();
      spy.mockRestore();
    }
  });
});

describe('every layer refuses in the same shape (issue 9, item 6)', () => {
  it('bad percent-encoding in the path', async () => {
    expectErrorBody(await get(`/v1/customers/%zz${long(200)}`), 400, 'invalid_url', 'Z');
  });

  it('a request that is not HTTP at all', async () => {
    expectErrorBody(await raw(`BREW ${long(200)}\r\n\r\n`), 400, 'invalid_request', 'Z');
  });

  it('an Expect header node cannot meet (anything but 100-continue): 417, named by param, the value echoed only as a prefix', async () => {
    const answer = await post('/v1/customers', '{}', `Expect: ${long(200)}\r\n`);
    expect(answer.status, answer.text).toBe(417);
    expect(answer.headers).toMatch(/content-type: application\/json/i);
    expect(answer.body.error).toMatchObject({ type: 'invalid_request_error', code: 'expectation_failed', param: 'Expect' });
    expect(answer.text).not.toContain(long(ECHO_LIMIT + 1));
  });

  it('a compressed body (Content-Encoding) is refused naming the header, not called invalid JSON', async () => {
    for (const encoding of ['gzip', `x-${long(200)}`]) {
      const answer = await post('/v1/customers', '{}', `Content-Encoding: ${encoding}\r\n`);
      expectErrorBody(answer, 400, 'unsupported_content_encoding', 'Z');
      expect(answer.body.error.param).toBe('Content-Encoding');
    }
    expect((await post('/v1/customers', '{}', 'Content-Encoding: identity\r\n')).status).toBe(200);
  });

  it('an HTTP/1.1 request without Host, which node refuses before any route', async () => {
    const answer = await raw(`GET /v1/customers HTTP/1.1\r\n${auth()}Connection: close\r\n\r\n`);
    expectErrorBody(answer, 400, 'parameter_missing');
    expect(answer.body.error.param).toBe('Host');
  });

  it('a CONNECT request (a proxy\'s method), which node would drop without a word', async () => {
    const answer = await raw(`CONNECT ${long(200)}:443 HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth()}\r\n`);
    expectErrorBody(answer, 404, 'route_missing', 'Z');
  });

  it('a body that starts with a byte order mark (PowerShell\'s UTF-8 files) is read as the JSON it is', async () => {
    const answer = await post('/v1/customers', '\uFEFF{"email":"bom@example.com"}');
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ object: 'customer', email: 'bom@example.com' });
  });

  it('invalid JSON, without quoting it', async () => {
    const answer = await post('/v1/customers', `{"email": "${long(200)}`);
    expectErrorBody(answer, 400, 'invalid_json', 'Z');
    expect(answer.body.error.param).toBe('body');
  });

  it.each([
    ['null', 'null', 'parameter_invalid'],
    ['no body at all', '', 'parameter_missing'],
    ['an array', '[{"email":"a@example.com"}]', 'parameter_invalid'],
    ['a string', '"a@example.com"', 'parameter_invalid'],
  ])('%s to a create is a 400 naming body, and creates nothing', async (_name, body, code) => {
    const before = (await sb.call('GET', '/v1/customers?limit=100')).body.data.length;
    const answer = await post('/v1/customers', body);
    expectErrorBody(answer, 400, code);
    expect(answer.body.error.param).toBe('body');
    expect((await sb.call('GET', '/v1/customers?limit=100')).body.data.length).toBe(before);
  });

  it('a body nested thousands deep is a 400 naming body, never a 500 (with __proto__ in it, or an Idempotency-Key)', async () => {
    const deep = (leaf: string) => `{"metadata":${'{"a":'.repeat(100_000)}${leaf}${'}'.repeat(100_001)}`;
    for (const [body, headers] of [[deep('"__proto__"'), ''], [deep('1'), 'Idempotency-Key: deep-body\r\n']] as const) {
      const answer = await post('/v1/customers', body, headers);
      expectErrorBody(answer, 400, 'parameter_invalid', '{"a":');
      expect(answer.body.error).toMatchObject({ param: 'body', message: 'Invalid body: objects and arrays may nest at most 32 levels deep.' });
    }
    // As deep as any field of the API goes, and deeper: still read.
    const nested = await post('/v1/customers', `{"metadata":{"a":${'['.repeat(30)}${']'.repeat(30)}}}`);
    expectErrorBody(nested, 400, 'parameter_invalid');
    expect(nested.body.error.param).toBe('metadata.a');
  });

  it('__proto__ is an unknown parameter, not invalid JSON', async () => {
    for (const [body, param] of [['{"__proto__": {"admin": true}}', '__proto__'], ['{"metadata": {"__proto__": "x"}}', 'metadata.__proto__'], ['{"metadata": {"\\u005f_proto__": "x"}}', 'metadata.__proto__']]) {
      const answer = await post('/v1/customers', body!);
      expectErrorBody(answer, 400, 'parameter_unknown');
      expect(answer.body.error.param).toBe(param);
      expect(answer.body.error.message).toBe(`Received unknown parameter: ${param}. No field or metadata key may be named __proto__.`);
    }
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('a request offering an upgrade to anything but WebSocket (curl --http2 offers h2c) is served as HTTP/1.1, its body read', async () => {
    const h2c = 'Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n';
    const list = await get('/v1/customers?limit=1', `${auth()}${h2c}`);
    expect(list.status, list.text).toBe(200);
    expect(list.body.object).toBe('list');
    const created = await post('/v1/customers', '{"email":"h2c@example.com"}', h2c);
    expect(created.status, created.text).toBe(200);
    expect(created.body).toMatchObject({ object: 'customer', email: 'h2c@example.com' });
  });

  it('an event type, an endpoint\'s event and an event cursor are echoed only as a prefix', async () => {
    expectErrorBody(await get(`/v1/events?type=${long(2000)}`), 400, 'parameter_invalid', 'Z');
    expectErrorBody(await post('/v1/webhook-endpoints', JSON.stringify({ url: 'http://127.0.0.1:9/h', enabled_events: [long(2000)] })), 400, 'parameter_invalid', 'Z');
    const cursor = await get(`/v1/events?starting_after=evt_${long(2000)}`);
    expectErrorBody(cursor, 400, 'parameter_invalid', 'Z');
    expect(cursor.body.error.message).toMatch(/^Invalid starting_after: no event 'evt_Z+[^Z']+' to page after\.$/);
  });

  it('an empty cursor is refused with the rule in words', async () => {
    for (const path of ['/v1/customers', '/v1/events']) {
      const answer = await get(`${path}?starting_after=`);
      expectErrorBody(answer, 400, 'parameter_invalid');
      expect(answer.body.error).toMatchObject({ param: 'starting_after', message: 'Invalid starting_after: must be the id of the last object of the page before' });
    }
  });

  it('the CLI shows the error body of a 414, never "without an error body"', async () => {
    const env = baseEnv(configDir, { PAY_BASE_URL: sb.baseUrl, PAY_ACCOUNT: sb.account, PAY_API_KEY: sb.apiKey });
    const result = await runPay(['customers', 'get', `cus_${long(3000)}`], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stdout + result.stderr).toMatch(/url_too_long|longer than 100 characters/);
    expect(result.stdout + result.stderr).not.toMatch(/without an error body/);
    expect(result.stdout + result.stderr).not.toContain(long(ECHO_LIMIT + 1));
  });
});

describe('pay sandbox start --rate-limit', () => {
  it('limits each account of a sandbox process, and refuses a bad value with exit 2', async () => {
    const limited = await startSandbox({ args: ['--rate-limit', '1/s'] });
    try {
      const answers = await Promise.all(Array.from({ length: 20 }, () => limited.http('GET', '/v1/customers')));
      const refused = answers.find((a) => a.status === 429);
      expect(refused?.body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
      expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      const bad = await limited.pay(['sandbox', 'start', '--memory', '--port', '0', '--rate-limit', 'fast']);
      expect(bad.exitCode).toBe(2);
      expect(bad.stderr).toMatch(/Invalid --rate-limit: .*like 5\/s/);
    } finally {
      await limited.stop();
    }
  });
});
