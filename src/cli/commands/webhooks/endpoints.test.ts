import { describe, expect, it } from 'vitest';
import { cliEnv, cliSandbox, runCli } from '../../../../test/support/cli.js';
import { cuttingProxy } from '../../../../test/support/cutting-proxy.js';

const sb = cliSandbox({ clock: '2030-01-15T00:00:00Z' });

describe('pay webhooks endpoints', () => {
  it('creates, lists, gets and deletes an endpoint; the secret only once', async () => {
    const created = await sb.json(['webhooks', 'endpoints', 'create', '--url', 'https://example.com/hooks', '--subscription-group', 'payment_intent_events']);
    expect(created).toMatchObject({ object: 'webhook_endpoint', url: 'https://example.com/hooks', subscription_group: 'payment_intent_events', status: 'enabled' });
    expect(created.secret).toMatch(/^whsec_/);
    const got = await sb.json(['webhooks', 'endpoints', 'get', created.id]);
    expect(got).not.toHaveProperty('secret');
    expect((await sb.json(['webhooks', 'endpoints', 'list'])).data.map((e: { id: string }) => e.id)).toContain(created.id);
    // Destructive (DESIGN section 8): refused in a script without --yes, nothing deleted.
    const unconfirmed = await sb.pay(['webhooks', 'endpoints', 'delete', created.id]);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain('--yes');
    expect((await sb.json(['webhooks', 'endpoints', 'get', created.id])).id).toBe(created.id);
    expect(await sb.json(['webhooks', 'endpoints', 'delete', created.id, '--yes'])).toEqual({ id: created.id, object: 'webhook_endpoint', created: created.created, livemode: false, deleted: true });
    expect((await sb.pay(['webhooks', 'endpoints', 'get', created.id])).code).toBe(4);
  });

  it('refuses an unknown event type or a non-http URL, naming it', async () => {
    const typo = await sb.pay(['webhooks', 'endpoints', 'create', '--url', 'https://example.com', '--enabled-events', 'customer.created,payment_intent.succeded']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("--enabled-events: unknown event type 'payment_intent.succeded'");
    const api = await sb.http('POST', '/v1/webhook-endpoints', { url: 'https://example.com', enabled_events: ['customer.created', 'nope.thing'] });
    expect(api.status).toBe(400);
    expect(api.body.error).toMatchObject({ code: 'parameter_invalid', param: 'enabled_events.1' });
    expect(api.body.error.message).toContain("'nope.thing'");
    const ftp = await sb.http('POST', '/v1/webhook-endpoints', { url: 'ftp://example.com/x', enabled_events: ['*'] });
    expect(ftp.body.error).toMatchObject({ code: 'parameter_invalid', param: 'url' });
    const neither = await sb.http('POST', '/v1/webhook-endpoints', { url: 'https://example.com' });
    expect(neither.body.error).toMatchObject({ code: 'parameter_missing', param: 'enabled_events' });
  });

  it('says which flags to give when neither or both of --subscription-group and --enabled-events are', async () => {
    const neither = await sb.pay(['webhooks', 'endpoints', 'create', '--url', 'https://example.com/hooks']);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('Missing --subscription-group or --enabled-events: give one of them');
    const both = await sb.pay(['webhooks', 'endpoints', 'create', '--url', 'https://example.com/hooks', '--subscription-group', 'payment_intent_events', '--enabled-events', '*']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--subscription-group and --enabled-events cannot be used together: choose one.');
    for (const result of [neither, both]) expect(result.stderr).not.toMatch(/subscription_group|enabled_events/);
  });

  it('refuses a URL with a user or password in it, by the rule of a profile\'s base URL: it would be shown in get, list and the delivery log', async () => {
    const before = (await sb.http('GET', '/v1/webhook-endpoints?limit=100')).body.data;
    for (const url of ['http://user:hunter2@localhost:4242/hook', 'https://token@example.com/hooks', 'http://:hunter2@127.0.0.1:4242/hook']) {
      const api = await sb.http('POST', '/v1/webhook-endpoints', { url, enabled_events: ['*'] });
      expect(api.status, url).toBe(400);
      expect(api.body.error, url).toMatchObject({ code: 'parameter_invalid', param: 'url', message: 'Invalid url: must be an http(s) URL without a user or password in it, e.g. https://example.com/webhooks' });
      const cli = await sb.pay(['webhooks', 'endpoints', 'create', '--url', url, '--enabled-events', '*']);
      expect(cli.code, url).toBe(2);
      expect(cli.stderr).toContain('Invalid --url: must be an http(s) URL without a user or password in it');
      expect(cli.stderr).not.toContain('hunter2');
    }
    expect((await sb.http('GET', '/v1/webhook-endpoints?limit=100')).body.data).toEqual(before);
  });

  it('fails, naming the endpoint to delete, when the answer holding the secret was lost: the retry\'s replay cannot carry it', async () => {
    // The network fails on the way back of the create; the client retries with the same key.
    const proxy = await cuttingProxy(sb.baseUrl, (chunk) => chunk.toString().includes('whsec_'));
    try {
      const env = cliEnv(sb.configDir, { PAY_BASE_URL: proxy.baseUrl, PAY_ACCOUNT: sb.account, PAY_API_KEY: sb.apiKey });
      const result = await runCli(['webhooks', 'endpoints', 'create', '--url', 'https://example.com/lost', '--enabled-events', '*', '--json'], { env });
      expect(proxy.cuts()).toBe(1);
      const lost = (await sb.http('GET', '/v1/webhook-endpoints?limit=100')).body.data.find((e: { url: string }) => e.url === 'https://example.com/lost');
      // No placeholder for a script to take as the secret, and an exit a script sees.
      expect(result.stdout).toBe('');
      expect(result.code).toBe(1);
      expect(JSON.parse(result.stderr).error).toMatchObject({ code: 'secret_lost', exit_code: 1 });
      expect(result.stderr).toContain(`pay webhooks endpoints delete ${lost.id}`);
    } finally {
      await proxy.close();
    }
  });
});
