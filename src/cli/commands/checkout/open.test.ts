import { describe, expect, it } from 'vitest';
import { cliSandbox } from '../../../../test/support/cli.js';

const sb = cliSandbox();
const create = ['checkout', 'create', '--amount', '1099', '--currency', 'usd', '--success-url', 'https://example.com/ok', '--cancel-url', 'https://example.com/cart', '--open'];
const noDisplay = { DISPLAY: undefined, WAYLAND_DISPLAY: undefined, BROWSER: undefined };

describe('checkout create --open', () => {
  it('on a machine with no display says it could not open a browser, and prints the URL', async () => {
    const result = await sb.pay(create, { env: noDisplay });
    expect(result.code, result.stderr).toBe(0);
    const url = /^checkout_session_url\t(\S+)$/m.exec(result.stdout)![1]!;
    expect(result.stderr).toBe(`! Could not open a browser (no display here); open this URL yourself: ${url}`);
  });

  it('says so when the browser command fails, and only claims success when it succeeded', async () => {
    const failed = await sb.pay(create, { env: { ...noDisplay, BROWSER: '/bin/false' } });
    expect(failed.stderr).toMatch(/^! Could not open a browser \(\/bin\/false failed\); open this URL yourself: http:\/\/\S+\/checkout\/cs_\w+/);
    const opened = await sb.pay(create, { env: { ...noDisplay, BROWSER: '/bin/true' } });
    expect(opened.stderr).toMatch(/^Opened http:\/\/\S+\/checkout\/cs_\w+ in your browser\.$/);
  });
});
