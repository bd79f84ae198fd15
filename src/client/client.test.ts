import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../domain/errors.js';
import { backoff, Client } from './client.js';
import { NetworkError } from './errors.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** A local service answering each request with the next of `answers` (the last repeats). */
async function service(answers: Array<{ status: number; body?: unknown } | 'reset'>): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const answer = answers[Math.min(seen.length - 1, answers.length - 1)]!;
      if (answer === 'reset') return req.socket.destroy();
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, seen };
}

const API_KEY = 'sk_test_client_abcdefghijklmnopqrstuvwxyz';
const client = (baseUrl: string, trace?: (line: string) => void) =>
  new Client({ baseUrl, account: 'acct_1', apiKey: API_KEY, headerPrefix: 'pay', retries: 2, trace });
const failure = (status: number, code: string) => ({ status, body: { error: { type: 'x', code, message: `${code}.` } } });

describe('Client', () => {
  it('sends the auth headers with the profile prefix and Content-Type on every request, and a fresh Idempotency-Key on each write', async () => {
    const { url, seen } = await service([{ status: 200, body: { id: 'cus_1' } }]);
    const c = client(url);
    await c.call('customers.create', { body: { email: 'a@example.com' } });
    await c.call('customers.create', { body: { email: 'a@example.com' } });
    await c.call('customers.list', { query: { limit: 3 } });
    expect(seen[0]!.headers).toMatchObject({ 'pay-account': 'acct_1', 'pay-api-key': API_KEY, 'content-type': 'application/json' });
    expect(seen[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[1]!.headers['idempotency-key']).not.toBe(seen[0]!.headers['idempotency-key']);
    expect(seen[2]).toMatchObject({ method: 'GET', url: '/v1/customers?limit=3' });
    expect(seen[2]!.headers['idempotency-key']).toBeUndefined();
    // Spec section 4: every request carries Content-Type: application/json, a GET too.
    expect(seen[2]!.headers).toMatchObject({ 'pay-account': 'acct_1', 'pay-api-key': API_KEY, 'content-type': 'application/json' });
  });

  it('retries a write after 5xx and 429 with the same Idempotency-Key, then succeeds', async () => {
    const { url, seen } = await service([failure(503, 'unavailable'), failure(429, 'rate_limited'), { status: 200, body: { id: 'cus_1' } }]);
    await expect(client(url).call('customers.create', { body: { email: 'a@example.com' } })).resolves.toEqual({ id: 'cus_1' });
    expect(seen).toHaveLength(3);
    expect(new Set(seen.map((s) => s.headers['idempotency-key'])).size).toBe(1);
    expect(new Set(seen.map((s) => s.body)).size).toBe(1);
  });

  it('retries a write after a dropped connection with the same key', async () => {
    const { url, seen } = await service(['reset', { status: 200, body: { id: 'cus_1' } }]);
    await expect(client(url).call('customers.create', { body: {} })).resolves.toEqual({ id: 'cus_1' });
    expect(seen).toHaveLength(2);
    expect(seen[1]!.headers['idempotency-key']).toBe(seen[0]!.headers['idempotency-key']);
  });

  it('never retries a 4xx, and turns the error body into a typed error with code and param', async () => {
    const { url, seen } = await service([{ status: 400, body: { error: { type: 'invalid_request_error', code: 'parameter_invalid', message: 'Invalid email.', param: 'email' } } }]);
    const error = await client(url).call('customers.create', { body: { email: 'x' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'parameter_invalid', param: 'email' });
    expect(seen).toHaveLength(1);
  });

  it('gives up after its retries: the last 5xx is the answer', async () => {
    const { url, seen } = await service([failure(500, 'internal')]);
    await expect(client(url).call('customers.list')).rejects.toMatchObject({ status: 500, code: 'internal' });
    expect(seen).toHaveLength(3);
  });

  it('a closed port is a NetworkError after the retries', async () => {
    const { url } = await service([{ status: 200 }]);
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    await expect(client(url).call('customers.list')).rejects.toBeInstanceOf(NetworkError);
  });

  it('a write whose connection failed after it was sent may have been applied: the error says so and gives its key; one never sent does not', async () => {
    const { url, seen } = await service(['reset']);
    const error = await client(url).call('payment_intents.create', { body: { amount: 1000, currency: 'usd', payment_method_types: ['card'], confirm: true } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(seen).toHaveLength(3);
    const key = seen[0]!.headers['idempotency-key'];
    expect((error as Error).message).toBe(`Could not reach the service at ${url} (UND_ERR_SOCKET). The POST /v1/payment-intents may have been applied before the connection failed: check before running it again. It was sent with Idempotency-Key ${key}; sent again with that key and the same body (pay api --idempotency-key), it is not applied twice.`);

    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    const refused = await client(url).call('customers.create', { body: {} }).catch((e: unknown) => e);
    expect((refused as Error).message).toBe(`Could not reach the service at ${url} (ECONNREFUSED).`);
  });

  it('traces requests and responses with the key masked, in headers and bodies', async () => {
    const { url } = await service([{ status: 200, body: { id: 'acct_2', api_key: 'sk_test_returned_abcdefghijklmnop' } }]);
    const lines: string[] = [];
    await client(url, (line) => lines.push(line)).call('test_helpers.accounts_create', { body: { api_key: 'sk_test_sent_abcdefghijklmnopqrst' } });
    const trace = lines.join('\n');
    expect(trace).toContain('> POST');
    expect(trace).toContain('< 200 POST');
    for (const secret of [API_KEY, 'sk_test_returned_abcdefghijklmnop', 'sk_test_sent_abcdefghijklmnopqrst']) expect(trace).not.toContain(secret);
    expect(trace).toContain('sk_test_…wxyz');
  });
});

describe('backoff', () => {
  afterEach(() => vi.restoreAllMocks());

  it('waits what Retry-After asks (at most 10 s) or backs off exponentially, plus up to half again as jitter', () => {
    for (const [random, factor] of [[0, 1], [1, 1.5]] as const) {
      vi.spyOn(Math, 'random').mockReturnValue(random);
      expect(backoff(0, '1')).toBe(1000 * factor);
      expect(backoff(3, ['2'])).toBe(2000 * factor);
      expect(backoff(0, '60')).toBe(10_000 * factor);
      expect(backoff(2)).toBe(800 * factor);
      expect(backoff(1, 'soon')).toBe(400 * factor);
    }
  });
});
