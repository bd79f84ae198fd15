import { describe, expect, it } from 'vitest';
import { cliSandbox } from '../../../../test/support/cli.js';

// retry-past-due in-process: what its output says when there is nothing, or when another
// process runs a batch. Crashes, signals and TTYs are in test/e2e/operator.test.ts.

const sb = cliSandbox({ clock: '2030-01-15T00:00:00Z' });

describe('pay subscriptions retry-past-due --dry-run', () => {
  it('with nothing past_due, --json is the past-due list (empty), as with some', async () => {
    const dry = await sb.pay(['subscriptions', 'retry-past-due', '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toEqual({ object: 'list', data: [], has_more: false });
    const resumed = await sb.pay(['subscriptions', 'retry-past-due', '--resume', '--dry-run', '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toEqual({ object: 'list', data: [], has_more: false });
  });
});
