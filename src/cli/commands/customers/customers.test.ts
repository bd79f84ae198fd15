import { describe, expect, it } from 'vitest';
import { cliSandbox } from '../../../../test/support/cli.js';

const sb = cliSandbox({ clock: '2030-01-15T00:00:00Z' });

describe('pay customers', () => {
  it('creates, gets and lists a customer with every spec field', async () => {
    const created = await sb.json(['customers', 'create', '--email', 'jenny@example.com', '--first-name', 'Jenny', '--middle-name', 'Q', '--last-name', 'Rosen', '--phone', '5551234567', '--metadata', 'plan=gold', '--metadata', 'ref=42']);
    expect(created).toMatchObject({
      object: 'customer',
      email: 'jenny@example.com',
      first_name: 'Jenny',
      middle_name: 'Q',
      last_name: 'Rosen',
      phone: '5551234567',
      metadata: { plan: 'gold', ref: '42' },
      livemode: false,
      created: '2030-01-15T00:00:00Z',
    });
    expect(created.id).toMatch(/^cus_/);
    expect(await sb.json(['customers', 'get', created.id])).toEqual(created);
    const list = await sb.json(['customers', 'list', '--limit', '100']);
    expect(list.object).toBe('list');
    expect(list.data.map((c: { id: string }) => c.id)).toContain(created.id);
  });

  it('prints key<TAB>value lines when piped and nothing but JSON with --json', async () => {
    const piped = await sb.pay(['customers', 'create', '--email', 'tsv@example.com']);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toMatch(/^id\tcus_\w+$/m);
    expect(piped.stdout).toContain('email\ttsv@example.com\n');
    const json = await sb.pay(['customers', 'list', '--json']);
    expect(() => JSON.parse(json.stdout)).not.toThrow();
  });

  it('rejects a bad flag value before any request, naming the flag (exit 2)', async () => {
    const before = await sb.sandbox.call('GET', '/v1/customers?limit=100');
    const result = await sb.pay(['customers', 'create', '--email', 'not-an-email']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Invalid --email');
    expect(result.stdout).toBe('');
    const after = await sb.sandbox.call('GET', '/v1/customers?limit=100');
    expect(after.body.data.length).toBe(before.body.data.length);
  });

  it('a metadata key breaking its rule is refused with that rule, as the service words it, naming --metadata', async () => {
    const result = await sb.pay(['customers', 'create', '--metadata', `${'k'.repeat(41)}=v`]);
    expect(result).toEqual({ code: 2, stdout: '', stderr: '✗ Invalid --metadata: metadata keys are at most 40 characters.' });
  });

  it('exits 4 for a missing customer', async () => {
    const result = await sb.pay(['customers', 'get', 'cus_doesnotexist']);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('resource_missing');
    expect(result.stderr).toContain("No such customer: 'cus_doesnotexist'");
  });

  it('paginates with a stable cursor; --all pages through every one', async () => {
    for (let i = 0; i < 3; i++) await sb.json(['customers', 'create', '--email', `page${i}@example.com`]);
    const first = await sb.json(['customers', 'list', '--limit', '2']);
    expect(first.has_more).toBe(true);
    const second = await sb.json(['customers', 'list', '--limit', '2', '--starting-after', first.data[1].id]);
    const ids = [...first.data, ...second.data].map((c: { id: string }) => c.id);
    expect(new Set(ids).size).toBe(ids.length);

    // More than one page of 100: --all follows starting_after to the end.
    for (let i = 0; i < 101; i++) await sb.sandbox.call('POST', '/v1/customers', { email: `many${i}@example.com` });
    const everything = (await sb.sandbox.call('GET', '/v1/customers?limit=100')).body;
    expect(everything.has_more).toBe(true);
    const all = await sb.json(['customers', 'list', '--all']);
    expect(all).toMatchObject({ object: 'list', has_more: false });
    const allIds = all.data.map((c: { id: string }) => c.id);
    expect(allIds.length).toBeGreaterThan(104);
    expect(new Set(allIds).size).toBe(allIds.length);
    expect(allIds.slice(0, 100)).toEqual(everything.data.map((c: { id: string }) => c.id));
    expect((await sb.pay(['customers', 'list', '--all'])).stdout.split('\n')).toHaveLength(allIds.length);
    const both = await sb.pay(['customers', 'list', '--all', '--limit', '5']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("Option '--all' cannot be used with option '--limit <n>'");
  });

  it('an id of another kind, as the argument or as a filter, is a usage error before any request; the service refuses it too', async () => {
    const get = await sb.pay(['customers', 'get', 'pi_123']);
    expect(get.code).toBe(2);
    expect(get.stderr).toContain("Invalid <id> 'pi_123': must be an id starting with cus_.");
    const list = await sb.pay(['intents', 'list', '--subscription', 'cus_1']);
    expect(list.code).toBe(2);
    expect(list.stderr).toContain('Invalid --subscription: must be an id starting with sub_.');
    const api = await sb.sandbox.call('GET', '/v1/payment-intents?subscription_id=cus_1');
    expect(api.status).toBe(400);
    expect(api.body.error).toMatchObject({ code: 'parameter_invalid', param: 'subscription_id' });
  });

  it('a cursor of another kind is a usage error naming --starting-after, on every list; the service refuses it too', async () => {
    const lists: Array<[string[], string]> = [
      [['customers'], 'cus'], [['payment-methods'], 'pm'], [['intents'], 'pi'], [['charges'], 'ch'], [['refunds'], 're'],
      [['checkout'], 'cs'], [['payment-links'], 'plink'], [['subscriptions'], 'sub'], [['readers'], 'tmr'],
      [['webhooks', 'endpoints'], 'we'], [['events'], 'evt'],
    ];
    for (const [noun, prefix] of lists) {
      const other = prefix === 'cus' ? 'pm_123' : 'cus_123';
      const result = await sb.pay([...noun, 'list', '--starting-after', other]);
      expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }, noun.join(' ')).toEqual({
        code: 2,
        stdout: '',
        stderr: `✗ Invalid --starting-after: must be the id (${prefix}_…) of the last object of the page before.`,
      });
    }
    const api = await sb.sandbox.call('GET', '/v1/customers?starting_after=pm_123');
    expect(api.status).toBe(400);
    expect(api.body.error).toMatchObject({ param: 'starting_after', message: 'Invalid starting_after: must be the id (cus_…) of the last object of the page before' });
  });

  it('an --email filter that is no email address (or empty) is a usage error, not an empty list; the service refuses it too', async () => {
    for (const email of ['not-an-email', '']) {
      const result = await sb.pay(['customers', 'list', '--email', email]);
      expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }, email).toEqual({
        code: 2,
        stdout: '',
        stderr: '✗ Invalid --email: must be an email address, e.g. jenny@example.com.',
      });
    }
    const api = await sb.sandbox.call('GET', '/v1/customers?email=not-an-email');
    expect(api.status).toBe(400);
    expect(api.body.error).toMatchObject({ code: 'parameter_invalid', param: 'email' });
  });

  it('a limit out of range is a usage error naming --limit, before any request', async () => {
    const result = await sb.pay(['customers', 'list', '--limit', '500']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Invalid --limit: must be an integer from 1 to 100.');
  });
});
