import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from './harness.js';

let sb: SandboxHandle;
beforeAll(async () => {
  sb = await startSandbox({ clock: '2030-01-15' });
});
afterAll(async () => sb?.stop());

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

  it('prints TSV when piped and nothing but JSON with --json', async () => {
    const piped = await sb.pay(['customers', 'create', '--email', 'tsv@example.com']);
    expect(piped.exitCode).toBe(0);
    expect(piped.stdout).toMatch(/^id\tcus_\w+$/m);
    const json = await sb.pay(['customers', 'list', '--json']);
    expect(() => JSON.parse(json.stdout)).not.toThrow();
  });

  it('rejects a bad flag value before any request, naming the flag (exit 2)', async () => {
    const before = await sb.http('GET', '/v1/customers?limit=100');
    const result = await sb.pay(['customers', 'create', '--email', 'not-an-email']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--email');
    expect(result.stdout).toBe('');
    const after = await sb.http('GET', '/v1/customers?limit=100');
    expect(after.body.data.length).toBe(before.body.data.length);
  });

  it('exits 4 for a missing customer', async () => {
    const result = await sb.pay(['customers', 'get', 'cus_doesnotexist']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('resource_missing');
  });

  it('paginates with a stable cursor', async () => {
    for (let i = 0; i < 3; i++) await sb.json(['customers', 'create', '--email', `page${i}@example.com`]);
    const first = await sb.json(['customers', 'list', '--limit', '2']);
    expect(first.has_more).toBe(true);
    const second = await sb.json(['customers', 'list', '--limit', '2', '--starting-after', first.data[1].id]);
    const ids = [...first.data, ...second.data].map((c: { id: string }) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
