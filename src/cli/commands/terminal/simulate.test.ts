import { describe, expect, it } from 'vitest';
import { cliSandbox } from '../../../../test/support/cli.js';

const sb = cliSandbox({ clock: '2030-01-15T00:00:00Z' });

describe('pay terminal simulate', () => {
  // As pay readers activate says it: the service's words name its own path; the CLI adds the command that gets a code.
  it('an unknown, used or expired --activation-code: the service\'s error, then the pay command that gets a new code', async () => {
    const simulate = (code: string, serial: string, json: string[] = []) =>
      sb.pay(['terminal', 'simulate', '--processor', 'A', '--model', 'a-handheld', '--serial', serial, '--activation-code', code, '--once', ...json]);
    const unknown = await simulate('NOPE-0000', 'SN-SIMHINT-1');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Invalid activation_code: no such code on this account.');
    expect(unknown.stderr).toContain('Get a new code with: pay readers activation-code');

    const { code } = await sb.json(['readers', 'activation-code']);
    await sb.json(['readers', 'activate', '--activation-code', code, '--serial', 'SN-SIMHINT-2', '--model', 'a-countertop']);
    const used = await simulate(code, 'SN-SIMHINT-3');
    expect(used.code).toBe(1);
    expect(used.stderr).toContain('it was already used');
    expect(used.stderr).toContain('Get a new code with: pay readers activation-code');

    // --json keeps the documented error object: the hint is for a person.
    const json = await simulate('NOPE-0000', 'SN-SIMHINT-4', ['--json']);
    expect(JSON.parse(json.stderr).error).toMatchObject({ code: 'parameter_invalid', param: 'activation_code', exit_code: 1 });
  });
});
