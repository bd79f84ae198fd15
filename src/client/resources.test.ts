import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { endpoints } from '../domain/endpoints.js';
import { ApiError, createClient, NetworkError, type ListPage, type PayClient, type PaymentIntent, type Subscription } from '../index.js';
import { startSandbox, type TestSandbox } from '../sandbox/testing.js';

const CARD = { number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123' };

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close();
});
async function sandbox(options: Parameters<typeof startSandbox>[0] = {}): Promise<{ sb: TestSandbox; pay: PayClient }> {
  const sb = await startSandbox(options);
  const pay = createClient(sb);
  open.push(sb, pay);
  return { sb, pay };
}

describe('createClient', () => {
  it('has one method per request endpoint of the table, named after it', async () => {
    const { pay } = await sandbox();
    const methods = Object.entries(pay as unknown as Record<string, object>)
      .filter(([, value]) => typeof value === 'object')
      .flatMap(([resource, verbs]) => Object.keys(verbs).map((verb) => `${resource}.${verb}`));
    const camel = (name: string) => name.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
    const expected = Object.keys(endpoints).filter((name) => name !== 'listen' && name !== 'terminal_readers.connect').map(camel);
    expect(methods.sort()).toEqual(expected.sort());
  });

  it('is typed by the domain schemas and types (checked by the type-check)', () => {
    const typed = (pay: PayClient) => {
      // @ts-expect-error an unknown field
      void pay.customers.create({ emial: 'a@example.com' });
      // @ts-expect-error the required amount is missing
      void pay.paymentIntents.create({ currency: 'usd', payment_method_types: ['card'] });
      // @ts-expect-error get needs the id
      void pay.subscriptions.get();
      expectTypeOf(pay.subscriptions.get).returns.resolves.toEqualTypeOf<Subscription>();
      expectTypeOf(pay.paymentIntents.list).returns.resolves.toEqualTypeOf<ListPage<PaymentIntent>>();
      expectTypeOf(pay.paymentIntents.list).parameter(0).toEqualTypeOf<{ limit?: number; starting_after?: string | undefined; subscription_id?: string | undefined; customer_id?: string | undefined; status?: PaymentIntent['status'] | undefined } | undefined>();
    };
    expect(typed).toBeTypeOf('function');
  });

  it('creates, reads and lists resources with ids in the path and filters in the query', async () => {
    const { pay } = await sandbox({ clock: '2030-01-01' });
    const customer = await pay.customers.create({ email: 'jenny@example.com', metadata: { plan: 'gold' } });
    expect(customer).toMatchObject({ object: 'customer', email: 'jenny@example.com', metadata: { plan: 'gold' } });
    await expect(pay.customers.get(customer.id)).resolves.toEqual(customer);
    const card = await pay.paymentMethods.create({ type: 'card', card: CARD });
    await pay.paymentMethods.attach(card.id, { customer_id: customer.id });
    const intent = await pay.paymentIntents.create({ amount: 2000, currency: 'usd', payment_method_types: ['card'], payment_method_id: card.id, confirm: true, customer_id: customer.id });
    expect(intent.status).toBe('succeeded');
    const listed = await pay.paymentIntents.list({ customer_id: customer.id, limit: 5 });
    expect(listed.data.map((i) => i.id)).toEqual([intent.id]);
    const paused = pay.subscriptions.pause('sub_missing');
    await expect(paused).rejects.toBeInstanceOf(ApiError);
    await expect(paused).rejects.toMatchObject({ status: 404, code: 'resource_missing' });
  });

  it('replays a write sent again with its idempotency key, and refuses the key for another body (422)', async () => {
    const { pay } = await sandbox();
    const first = await pay.customers.create({ email: 'a@example.com' }, { idempotencyKey: 'key-1' });
    const again = await pay.customers.create({ email: 'a@example.com' }, { idempotencyKey: 'key-1' });
    expect(again.id).toBe(first.id);
    const other = await pay.customers.create({ email: 'a@example.com' });
    expect(other.id).not.toBe(first.id);
    await expect(pay.customers.create({ email: 'b@example.com' }, { idempotencyKey: 'key-1' })).rejects.toMatchObject({ status: 422, code: 'idempotency_key_reused' });
  });

  it('throws ApiError naming the field of a rejected request, and keeps the declined intent of a 402', async () => {
    const { pay } = await sandbox();
    await expect(pay.customers.create({ email: 'not-an-email' })).rejects.toMatchObject({ status: 400, code: 'parameter_invalid', param: 'email' });
    const declined = await pay.paymentMethods.create({ type: 'card', card: { ...CARD, number: '4000000000000002' } });
    const error = await pay.paymentIntents.create({ amount: 500, currency: 'usd', payment_method_types: ['card'], payment_method_id: declined.id, confirm: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 402, code: 'card_declined', extra: { payment_intent: { status: 'requires_payment_method' } } });
  });

  it('retries a write after a 503 with the same idempotency key, as the CLI does', async () => {
    const keys: Array<string | undefined> = [];
    const server = createServer((req, res) => {
      req.resume().on('end', () => {
        keys.push((req.headers as IncomingHttpHeaders)['idempotency-key'] as string | undefined);
        if (keys.length === 1) return void res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { type: 'api_error', code: 'unavailable', message: 'Try again.' } }));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'cus_1', object: 'customer' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    open.push({ close: () => new Promise((resolve) => server.close(() => resolve())) });
    const pay = createClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, account: 'acct_1', apiKey: 'sk_test_abcdefghijklmnop' });
    open.push(pay);
    await expect(pay.customers.create({ email: 'a@example.com' })).resolves.toMatchObject({ id: 'cus_1' });
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
  });

  it('reads PAY_BASE_URL, PAY_ACCOUNT and PAY_API_KEY when not given, and names what is missing', async () => {
    const { sb } = await sandbox();
    const saved = { ...process.env };
    try {
      Object.assign(process.env, sb.env);
      const pay = createClient();
      open.push(pay);
      await expect(pay.customers.list()).resolves.toMatchObject({ object: 'list', data: [] });
      delete process.env.PAY_API_KEY;
      expect(() => createClient()).toThrow(/apiKey is required \(or set PAY_API_KEY\)/);
    } finally {
      process.env = saved;
    }
    const nowhere = createClient({ baseUrl: 'http://127.0.0.1:9', account: 'acct_1', apiKey: 'sk_test_abcdefghijklmnop', retries: 0 });
    open.push(nowhere);
    await expect(nowhere.customers.list()).rejects.toBeInstanceOf(NetworkError);
  });
});

describe('startSandbox (pay/testing)', () => {
  it('starts at the given date, advances by days or to a date, and lists the events oldest first', async () => {
    const { sb, pay } = await sandbox({ clock: '2030-03-01' });
    expect(sb.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sb.env).toEqual({ PAY_BASE_URL: sb.baseUrl, PAY_ACCOUNT: sb.account, PAY_API_KEY: sb.apiKey });
    await expect(sb.now()).resolves.toBe('2030-03-01T00:00:00Z');
    await expect(sb.advanceClock({ days: 2 })).resolves.toMatchObject({ now: '2030-03-03T00:00:00Z' });
    await expect(sb.advanceClock({ to: '2030-04-01' })).resolves.toMatchObject({ now: '2030-04-01T00:00:00Z' });
    const first = await pay.customers.create({ email: 'a@example.com' });
    const card = await pay.paymentMethods.create({ type: 'card', card: CARD });
    await pay.paymentMethods.attach(card.id, { customer_id: first.id });
    const events = await sb.events();
    expect(events.map((e) => e.type)).toEqual(['customer.created', 'payment_method.attached']);
    expect(events[0]!.created).toBe('2030-04-01T00:00:00Z');
    await expect(sb.events({ type: 'payment_method.*' })).resolves.toHaveLength(1);
  });

  it('pages through more events than one list holds', async () => {
    const { sb, pay } = await sandbox();
    const created: string[] = [];
    for (let i = 0; i < 105; i++) created.push((await pay.customers.create({ email: `c${i}@example.com` })).id);
    const events = await sb.events({ type: 'customer.created' });
    expect(events.map((e) => (e.data.object as { id: string }).id)).toEqual(created);
  });

  it('refuses a clock that is not a date', async () => {
    await expect(startSandbox({ clock: 'next tuesday' })).rejects.toThrow(/clock must be a date \(YYYY-MM-DD\) or a date-time with Z or an offset \(ISO 8601, e.g. 2030-01-31T09:00:00Z\), got 'next tuesday'/);
  });
});
