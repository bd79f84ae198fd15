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

describe('pay terminal simulate --activation-code', () => {
  // Spec section 1, item 6: a self-owned developer reader is a processor A model, so a code means processor A (pay readers activate's --processor defaults to A too).
  it('needs no --processor: the reader connects as processor A', async () => {
    // An unknown code: the service refuses the reader's hello, which shows it was sent, as processor A.
    const result = await sb.pay(['terminal', 'simulate', '--model', 'a-handheld', '--serial', 'SN-SIMOWN-1', '--activation-code', 'NOPE-0000', '--once']);
    expect(result.stderr).toContain('Invalid activation_code: no such code on this account.');
    expect(result.code).toBe(1);
    // Processor B, or a processor B model, is still refused before connecting, naming the flag.
    const b = await sb.pay(['terminal', 'simulate', '--processor', 'B', '--model', 'b-mobile', '--activation-code', 'NOPE-0000']);
    expect([b.code, b.stderr]).toEqual([2, expect.stringMatching(/^✗ Invalid --processor: a self-owned reader must be a processor A model/)]);
    const model = await sb.pay(['terminal', 'simulate', '--model', 'b-mobile', '--activation-code', 'NOPE-0000']);
    expect([model.code, model.stderr]).toEqual([2, expect.stringMatching(/^✗ Invalid --model: must be a processor A model: a-countertop or a-handheld/)]);
  });
});

describe('pay terminal simulate --model', () => {
  // DESIGN section 7: every model is of one processor, so --model says which; asking for --processor too asks for what was given.
  it('needs no --processor: the model names it', async () => {
    const { code } = await sb.json(['readers', 'activation-code']);
    const reader = await sb.json(['readers', 'activate', '--activation-code', code, '--serial', 'SN-SIMMODEL-1', '--model', 'a-countertop']);
    // The service refuses the hello of a known serial with another processor or model, which shows what was sent.
    const a = await sb.pay(['terminal', 'simulate', '--model', 'a-handheld', '--serial', 'SN-SIMMODEL-1', '--once']);
    expect([a.code, a.stderr]).toEqual([1, expect.stringContaining(`Invalid model: reader ${reader.id} has model a-countertop, not a-handheld.`)]);
    const b = await sb.pay(['terminal', 'simulate', '--model', 'b-mobile', '--serial', 'SN-SIMMODEL-1', '--once']);
    expect([b.code, b.stderr]).toEqual([1, expect.stringContaining(`Invalid processor: reader ${reader.id} has processor A, not B.`)]);
    // Given both, they must agree, as before.
    const both = await sb.pay(['terminal', 'simulate', '--processor', 'A', '--model', 'b-mobile']);
    expect([both.code, both.stderr]).toEqual([2, expect.stringMatching(/^✗ Invalid --model: must be a processor A model/)]);
  });
});
