import { describe, expect, it } from 'vitest';
import { type CliResult, cliSandbox } from '../../test/support/cli.js';

const sb = cliSandbox();

const SECOND_KEY = 'sk_test_second_account_0123456789abcdef';

/** Neither the whole key nor any 13-character piece of it beyond the allowed 8 + 4. */
function expectNoKey(result: CliResult, key: string): void {
  for (const text of [result.stdout, result.stderr]) {
    expect(text).not.toContain(key);
    // The longest part a mask may show is the first 8 characters; any 9 in a row from the middle is a leak.
    for (let i = 1; i + 9 <= key.length - 4; i++) expect(text).not.toContain(key.slice(i, i + 9));
  }
}

describe('the API key never appears whole in stdout, stderr or --verbose', () => {
  it.each([
    [['profiles', 'list']],
    [['profiles', 'list', '--json']],
    [['profiles', 'show']],
    [['profiles', 'show', '--json']],
    [['customers', 'list', '--verbose']],
    [['customers', 'create', '--email', 'mask@example.com', '--verbose']],
    [['api', 'GET', '/v1/customers', '--verbose']],
    [['api', 'POST', '/v1/customers', '-f', 'email=m@example.com', '--verbose']],
    [['sandbox', 'status']],
    [['sandbox', 'status', '--json']],
  ])('pay %s', async (args) => {
    const result = await sb.pay(args);
    expect(result.code, result.stderr).toBe(0);
    expectNoKey(result, sb.apiKey);
  });

  it('a key put where an id goes is masked in the --verbose trace too: the path sent, the service\'s answer echoing it, the error', async () => {
    for (const args of [['api', 'GET', `/v1/customers/${sb.apiKey}`, '--verbose'], ['customers', 'get', sb.apiKey, '--verbose'], ['api', 'GET', '/v1/customers', '-f', `starting_after=${sb.apiKey}`, '--verbose']]) {
      const result = await sb.pay(args);
      expect(result.code, result.stderr).not.toBe(0);
      if (args[0] === 'api') expect(result.stderr).toContain('> GET');
      expectNoKey(result, sb.apiKey);
    }
  });

  it('--verbose shows the trace, with the key masked', async () => {
    const result = await sb.pay(['customers', 'list', '--verbose']);
    expect(result.stderr).toContain('> GET');
    expect(result.stderr).toMatch(/> pay-api-key: sk_test_…\w{4}/);
  });

  it('--verbose traces a WebSocket\'s upgrade too (listen, events tail, terminal simulate), the key masked', async () => {
    const result = await sb.pay(['webhooks', 'listen', '--forward-to', 'http://127.0.0.1:9/hook', '--exit-after-idle', '1s', '--verbose']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^> GET ws:\/\/127\.0\.0\.1:\d+\/v1\/listen\?listener=lsn_/m);
    expect(result.stderr).toMatch(/^> pay-api-key: sk_test_…\w{4}$/m);
    expect(result.stderr).toMatch(/^< 101 GET \/v1\/listen \(\d+ms\)$/m);
    expectNoKey(result, sb.apiKey);
  });

  it('an error with --verbose keeps it masked too', async () => {
    const result = await sb.pay(['customers', 'get', 'cus_missing', '--verbose']);
    expect(result.code).toBe(4);
    expectNoKey(result, sb.apiKey);
  });

  it('a new account\'s key, sent and received with --verbose, is masked in the trace and the output', async () => {
    const result = await sb.pay(['sandbox', 'accounts', 'add', '--account', 'acct_mask2', '--api-key-stdin', '--name', 'masked', '--verbose', '--json'], { input: SECOND_KEY });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ account: 'acct_mask2', api_key: 'sk_test_…cdef' });
    expectNoKey(result, SECOND_KEY);
    expectNoKey(result, sb.apiKey);
    const listed = await sb.pay(['profiles', 'list']);
    expectNoKey(listed, SECOND_KEY);
  });

  it('a profile added with a key never echoes it', async () => {
    const key = 'sk_live_echo_0123456789abcdefghijkl';
    const result = await sb.pay(['profiles', 'add', 'echo', '--base-url', 'https://x.example.com', '--account', 'acct_x', '--api-key-stdin'], { input: key });
    expect(result.code).toBe(0);
    expectNoKey(result, key);
  });
});

describe('a card number typed where none belongs is echoed by no error, as the service echoes none', () => {
  const CARD = '4000777788889991';
  it.each([
    [['customers', 'get', CARD]],
    [['customers', 'get', CARD, '--json']],
    [['intents', 'list', '--status', CARD]],
    [['intents', 'create', '--amount', `x${CARD}`, '--currency', 'usd']],
    [['customers', 'create', '--metadata', CARD]],
    [['customers', 'list', `--${CARD}`]],
  ])('pay %s', async (args) => {
    const result = await sb.pay(args);
    expect(result.code).toBe(2);
    expect(result.stderr).not.toContain(CARD);
    expect(result.stderr).toContain('…9991');
  });
});
