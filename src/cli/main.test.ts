import { describe, expect, it } from 'vitest';
import { cliSandbox } from '../../test/support/cli.js';
import { freePort } from '../../test/e2e/net.js';

// main's one table from errors to exit codes, and pay api, run in-process.

const sb = cliSandbox();

describe('exit codes (DESIGN.md section 8)', () => {
  it('0 on success', async () => {
    expect((await sb.pay(['customers', 'list'])).code).toBe(0);
  });

  it('2 for usage errors, before any request, with a suggestion on a typo', async () => {
    const typo = await sb.pay(['custmers', 'list']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("Unknown command 'custmers'");
    expect(typo.stderr).toContain('Did you mean customers?');
    const verbTypo = await sb.pay(['customers', 'lst']);
    expect(verbTypo.code).toBe(2);
    expect(verbTypo.stderr).toContain('Did you mean list?');
    const flag = await sb.pay(['customers', 'list', '--limt', '3']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--limit');
    const value = await sb.pay(['customers', 'list', '--limit', 'many']);
    expect(value.code).toBe(2);
    expect(value.stderr).toContain('--limit');
    const missing = await sb.pay(['customers', 'get']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Missing <id>');
    for (const result of [typo, flag, value, missing]) expect(result.stdout).toBe('');
  });

  it('2 for a pair of flags of which one is needed, given neither or both: the message names the flags, not the request fields', async () => {
    const neither = await sb.pay(['sandbox', 'clock', 'advance']);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('Missing --to or --days: give one of them.');
    const both = await sb.pay(['sandbox', 'clock', 'advance', '--to', '2030-02-01', '--days', '3']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--to and --days cannot be used together: choose one.');
    // Of a field's two spellings, the one given.
    const card = await sb.pay(['readers', 'present', 'tmr_123', '--outcome', 'approved', '--card-number', '4242424242424242']);
    expect(card.code).toBe(2);
    expect(card.stderr).toContain('--outcome and --card-number cannot be used together: choose one.');
    for (const result of [neither, both, card]) expect(result.stderr).not.toMatch(/\b(to or days|card_number)\b/);
  });

  it('2 for an <id> of another kind, on every command taking one, before any request', async () => {
    const commands = [
      ['checkout', 'get', 'pi_1', 'cs_'],
      ['payment-methods', 'attach', 'cus_1', 'pm_', '--customer', 'cus_1'],
      ['readers', 'present', 'pi_1', 'tmr_', '--outcome', 'approved'],
      ['subscriptions', 'update', 'pi_1', 'sub_', '--metadata', 'k=v'],
      ['subscriptions', 'schedule', 'pi_1', 'sub_'],
      ['subscriptions', 'cancel', 'pi_1', 'sub_', '--yes'],
    ];
    for (const [noun, verb, id, prefix, ...flags] of commands) {
      const result = await sb.pay([noun!, verb!, id!, ...flags, '--verbose']);
      expect(result.code, `${noun} ${verb}`).toBe(2);
      expect(result.stderr).toContain(`Invalid <id> '${id}': must be an id starting with ${prefix}.`);
      expect(result.stderr, `${noun} ${verb} made a request`).not.toMatch(/^> /m);
    }
  });

  it('3 for a key the service refuses', async () => {
    const result = await sb.pay(['customers', 'list'], { env: { PAY_API_KEY: 'sk_test_wrong_0123456789abcdef' } });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('api_key_invalid');
  });

  it('4 for a missing object', async () => {
    const result = await sb.pay(['customers', 'get', 'cus_nothere']);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain("No such customer: 'cus_nothere'");
  });

  it('7 when the service cannot be reached', async () => {
    const env = { PAY_PROFILE: undefined, PAY_BASE_URL: `http://127.0.0.1:${await freePort()}`, PAY_ACCOUNT: sb.account, PAY_API_KEY: sb.apiKey };
    const result = await sb.pay(['customers', 'list'], { env });
    expect(result.code).toBe(7);
    expect(result.stderr).toContain('Could not reach the service');
    expect(result.stdout).toBe('');
  });
});

describe('pay api: raw requests, the response body on stdout', () => {
  it('sends -f fields and prints the body; GET sends them as the query', async () => {
    const created = await sb.pay(['api', 'POST', '/v1/customers', '-f', 'email=raw@example.com', '-f', 'metadata.plan=gold']);
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ object: 'customer', email: 'raw@example.com', metadata: { plan: 'gold' } });
    const listed = await sb.pay(['api', 'GET', '/v1/customers', '-F', 'limit=1']);
    expect(JSON.parse(listed.stdout).data).toHaveLength(1);
  });

  it('an unknown field: 400 naming it, exit 1, the error body on stdout', async () => {
    const result = await sb.pay(['api', 'POST', '/v1/customers', '-f', 'email=a@example.com', '-f', 'nickname=jj']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).error).toMatchObject({ type: 'invalid_request_error', code: 'parameter_unknown', param: 'nickname' });
    expect(result.stderr).toContain('param: nickname');
  });

  it('a wrong type: 400 naming the field and the rule', async () => {
    const result = await sb.pay(['api', 'POST', '/v1/customers', '--data-json', '{"email": 42}']);
    expect(result.code).toBe(1);
    const error = JSON.parse(result.stdout).error;
    expect(error).toMatchObject({ code: 'parameter_invalid', param: 'email' });
    expect(error.message).toContain('must be an email address');
  });

  it('--data-json that is not JSON is a usage error (exit 2), nothing sent', async () => {
    const result = await sb.pay(['api', 'POST', '/v1/customers', '--data-json', '{"email":']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--data-json');
  });

  it('an unknown method is a usage error', async () => {
    expect((await sb.pay(['api', 'PATCH', '/v1/customers'])).code).toBe(2);
  });
});

describe('idempotent replay through pay api --idempotency-key', () => {
  it('the same key and body replays the first object, creating no second one', async () => {
    const email = `replay-${Date.now()}@example.com`;
    const args = ['api', 'POST', '/v1/customers', '-f', `email=${email}`, '--idempotency-key', `key-${email}`];
    const first = await sb.pay(args);
    const second = await sb.pay(args);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toEqual(JSON.parse(first.stdout));
    expect(second.stderr).toContain('replayed');
    expect(first.stderr).not.toContain('replayed');
    const list = await sb.http('GET', `/v1/customers?limit=100&email=${encodeURIComponent(email)}`);
    expect(list.body.data).toHaveLength(1);
  });

  it('a key that is empty or not printable ASCII is a usage error naming the flag (exit 2), nothing sent', async () => {
    for (const key of ['', 'ключ', 'two\nlines', ' padded ']) {
      const result = await sb.pay(['api', 'POST', '/v1/customers', '-f', 'email=bad-key@example.com', '--idempotency-key', key]);
      expect([result.code, result.stdout], JSON.stringify(key)).toEqual([2, '']);
      expect(result.stderr).toContain('Invalid --idempotency-key: must be');
    }
    expect((await sb.http('GET', '/v1/customers?limit=100&email=bad-key@example.com')).body.data).toHaveLength(0);
  });

  it('the same key with a different body: 422, exit 5, nothing created', async () => {
    const key = `key-conflict-${Date.now()}`;
    await sb.pay(['api', 'POST', '/v1/customers', '-f', 'email=one@example.com', '--idempotency-key', key]);
    const result = await sb.pay(['api', 'POST', '/v1/customers', '-f', 'email=two@example.com', '--idempotency-key', key]);
    expect(result.code).toBe(5);
    expect(JSON.parse(result.stdout).error).toMatchObject({ type: 'idempotency_error', code: 'idempotency_key_reused' });
    expect((await sb.http('GET', '/v1/customers?limit=100&email=two@example.com')).body.data).toHaveLength(0);
  });
});
