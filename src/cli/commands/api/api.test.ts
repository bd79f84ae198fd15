import { describe, expect, it } from 'vitest';
import { cliSandbox } from '../../../../test/support/cli.js';

const sb = cliSandbox({ clock: '2030-01-15T00:00:00Z' });

// DESIGN section 8: `pay api` follows `gh api`, whose method is optional: GET, or POST
// once fields are given, and `-X`/`--method` sets it.
describe('pay api, spelled as gh api is', () => {
  it('GETs a path given alone, and with -X GET its fields are the query', async () => {
    const result = await sb.pay(['api', '/v1/customers']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ object: 'list' });
    const query = await sb.pay(['api', '-X', 'GET', '/v1/customers', '-F', 'limit=1']);
    expect(query.code, query.stderr).toBe(0);
    expect(JSON.parse(query.stdout).data.length).toBeLessThanOrEqual(1);
  });

  it('POSTs a path given alone with fields', async () => {
    const result = await sb.pay(['api', '/v1/customers', '-f', 'email=gh@example.com']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ object: 'customer', email: 'gh@example.com' });
  });

  it('takes the method from -X / --method', async () => {
    const created = await sb.pay(['api', '-X', 'POST', '/v1/customers', '-f', 'email=x@example.com']);
    expect(created.code, created.stderr).toBe(0);
    const id = JSON.parse(created.stdout).id as string;
    const got = await sb.pay(['api', '--method', 'get', `/v1/customers/${id}`]);
    expect(got.code, got.stderr).toBe(0);
    expect(JSON.parse(got.stdout)).toMatchObject({ id, email: 'x@example.com' });
  });

  it('refuses two different methods, and a method with no path, before any request (exit 2)', async () => {
    const both = await sb.pay(['api', '-X', 'POST', 'GET', '/v1/customers']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('-X');
    // Nothing at all is a missing path too: the method is the optional one (it said 'Missing <method>').
    for (const noPath of [await sb.pay(['api', 'GET']), await sb.pay(['api']), await sb.pay(['api', '-X', 'POST', '--json'])]) {
      expect(noPath.code).toBe(2);
      expect(noPath.stderr).toContain('Missing <path>');
      expect(noPath.stderr).not.toContain('<method>');
    }
  });

  it('nests key[subkey]=value as gh api does, as dotted keys do, and appends with key[]', async () => {
    const result = await sb.pay(['api', '/v1/payment-methods', '-f', 'type=card', '-f', 'card[number]=4242424242424242', '-F', 'card[exp_month]=12', '-F', 'card.exp_year=2034', '-f', 'card[cvc]=123', '-f', 'metadata[plan]=gold']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ type: 'card', card: { last4: '4242', exp_month: 12, exp_year: 2034 }, metadata: { plan: 'gold' } });
    const types = await sb.pay(['api', '/v1/payment-intents', '-F', 'amount=100', '-f', 'currency=usd', '-f', 'payment_method_types[]=card']);
    expect(types.code, types.stderr).toBe(0);
    expect(JSON.parse(types.stdout)).toMatchObject({ payment_method_types: ['card'] });
  });

  it('keeps the method-first form', async () => {
    const result = await sb.pay(['api', 'GET', '/v1/customers', '-F', 'limit=1']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ object: 'list' });
  });
});

// gh api's -H/--header: a header of the caller's, sent with the profile's auth.
describe('pay api -H', () => {
  it('sends the header; an Idempotency-Key given so replays a write as --idempotency-key does', async () => {
    const args = ['api', '/v1/customers', '-f', 'email=header@example.com', '-H', 'Idempotency-Key: api-header-1', '-H', 'Accept-Language:fr'];
    const first = await sb.pay(args);
    expect(first.code, first.stderr).toBe(0);
    const again = await sb.pay(args);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).id).toBe(JSON.parse(first.stdout).id);
    expect(again.stderr).toContain('(replayed');
  });

  it('masks a secret-looking header in the --verbose trace', async () => {
    const result = await sb.pay(['api', '/v1/customers', '-H', 'Authorization: Bearer tok_0123456789abcdefghij', '--verbose']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('> authorization: Bearer t…ghij');
    expect(result.stderr).not.toContain('0123456789abcdefghij');
  });

  it('refuses a malformed header, one the client must set itself, and two idempotency keys, before any request (exit 2)', async () => {
    expect(await sb.pay(['api', '/v1/customers', '-H', 'Authorization Bearer tok_0123456789abcdefghij'])).toMatchObject({ code: 2, stderr: "✗ Invalid -H: expected name:value, e.g. -H 'Accept-Language: fr'." });
    expect(await sb.pay(['api', '/v1/customers', '-H', 'Host: example.com'])).toMatchObject({ code: 2, stderr: "✗ Invalid -H 'Host': pay sets Host itself." });
    expect(await sb.pay(['api', '/v1/customers', '-f', 'email=a@example.com', '-H', 'Idempotency-Key: a', '--idempotency-key', 'b'])).toMatchObject({ code: 2, stderr: '✗ -H Idempotency-Key and --idempotency-key cannot be used together: choose one.' });
  });
});
