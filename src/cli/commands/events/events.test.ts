import { beforeAll, describe, expect, it } from 'vitest';
import { cliSandbox } from '../../../../test/support/cli.js';

const sb = cliSandbox({ clock: '2030-01-15T00:00:00Z' });
const ids: string[] = [];
beforeAll(async () => {
  // Two customers a day, on the 15th, 16th and 17th.
  for (let day = 0; day < 3; day++) {
    if (day > 0) await sb.http('POST', '/v1/test-helpers/clock/advance', { days: 1 });
    for (let i = 0; i < 2; i++) await sb.http('POST', '/v1/customers', { email: `d${day}n${i}@example.com` });
  }
  ids.push(...(await sb.http('GET', '/v1/events?limit=100')).body.data.map((e: { id: string }) => e.id));
});

describe('pay events', () => {
  it('a stream\'s --from that is no event id is a usage error before connecting (tail and listen alike)', async () => {
    for (const args of [['events', 'tail', '--from', 'cus_x'], ['webhooks', 'listen', '--forward-to', 'http://127.0.0.1:9/hook', '--from', 'cus_x']]) {
      const result = await sb.pay(args);
      expect([result.code, result.stdout], args.join(' ')).toEqual([2, '']);
      expect(result.stderr.split('\n')[0]).toBe("✗ Invalid --from 'cus_x': must be an event id (evt_…)");
    }
  });

  it('lists events newest first, by type and created range, page by page', async () => {
    const all = await sb.json(['events', 'list', '--type', 'customer.*', '--limit', '100']);
    expect(all.data.map((e: { id: string }) => e.id)).toEqual(ids);
    expect(all.data[0]).toMatchObject({ object: 'event', type: 'customer.created', created: '2030-01-17T00:00:00Z', data: { object: { object: 'customer', email: 'd2n1@example.com' } } });

    const middle = await sb.json(['events', 'list', '--created-gte', '2030-01-16', '--created-lt', '2030-01-17T00:00:00Z']);
    expect(middle.data.map((e: { data: { object: { email: string } } }) => e.data.object.email)).toEqual(['d1n1@example.com', 'd1n0@example.com']);
    expect((await sb.json(['events', 'list', '--created-gt', '2030-01-16T00:00:00+01:00'])).data).toHaveLength(4);
    expect((await sb.json(['events', 'list', '--type', 'payment_intent.succeeded'])).data).toEqual([]);

    const first = await sb.json(['events', 'list', '--limit', '4']);
    expect(first.has_more).toBe(true);
    const rest = await sb.json(['events', 'list', '--limit', '4', '--starting-after', first.data[3].id]);
    expect([...first.data, ...rest.data].map((e: { id: string }) => e.id)).toEqual(ids);
    expect(rest.has_more).toBe(false);
  });

  it('prints a table row per event when piped', async () => {
    const piped = await sb.pay(['events', 'list', '--limit', '1']);
    expect(piped.stdout).toMatch(new RegExp(`^${ids[0]}\\tcustomer\\.created\\tcus_\\w+\\t2030-01-17T00:00:00Z$`, 'm'));
  });

  it('rejects an unknown type and a bad date before any request', async () => {
    const typo = await sb.pay(['events', 'list', '--type', 'customer.craeted']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("Invalid --type: unknown event type 'customer.craeted'");
    const date = await sb.pay(['events', 'list', '--created-gte', 'yesterday']);
    expect(date.code).toBe(2);
    expect(date.stderr).toContain('Invalid --created-gte');
    const api = await sb.http('GET', '/v1/events?type=nope');
    expect(api.body.error).toMatchObject({ code: 'parameter_invalid', param: 'type' });
  });

  it('gets one event with its deliveries, and exits 4 for a missing one', async () => {
    expect(await sb.json(['events', 'get', ids[0]!])).toMatchObject({ id: ids[0], deliveries: [] });
    const missing = await sb.pay(['events', 'get', 'evt_missing']);
    expect(missing.code).toBe(4);
    expect((await sb.pay(['events', 'resend', 'evt_missing'])).code).toBe(4);
  });

});
