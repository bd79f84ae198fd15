import { describe, expect, it } from 'vitest';
import { cliSandbox } from '../../../../test/support/cli.js';

const sb = cliSandbox({ clock: '2030-01-15T00:00:00Z' });

describe('pay readers activate', () => {
  // DESIGN section 8: flags are the fields' names in kebab case: serial_number is --serial-number (--serial for short).
  it('takes the serial number as --serial-number, the field it carries', async () => {
    const code = await sb.json(['readers', 'activation-code']);
    const reader = await sb.json(['readers', 'activate', '--activation-code', code.code, '--serial-number', 'SN-KEBAB-0001', '--processor', 'A', '--model', 'a-countertop']);
    expect(reader).toMatchObject({ object: 'terminal_reader', serial_number: 'SN-KEBAB-0001', device_type: 'self_owned' });
  });

  it('refuses --serial and --serial-number together (exit 2)', async () => {
    const result = await sb.pay(['readers', 'activate', '--activation-code', 'ABCD-1234', '--serial', 'SN-1', '--serial-number', 'SN-2', '--model', 'a-countertop']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--serial-number');
  });

  // The service's message names its own path (it serves any client); the CLI adds the command that gets a code.
  it('an unknown or expired code: the service\'s error, then the pay command that gets a new code', async () => {
    const unknown = await sb.pay(['readers', 'activate', '--activation-code', 'NOPE-0000', '--serial', 'SN-HINT-0001', '--model', 'a-countertop']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Invalid activation_code: no such code on this account.');
    expect(unknown.stderr).toContain('Get a new code with: pay readers activation-code');
    const code = await sb.json(['readers', 'activation-code']);
    await sb.json(['sandbox', 'clock', 'advance', '--days', '2']);
    const expired = await sb.pay(['readers', 'activate', '--activation-code', code.code, '--serial', 'SN-HINT-0002', '--model', 'a-countertop']);
    expect(expired.code).toBe(1);
    expect(expired.stderr).toContain('it expired at');
    expect(expired.stderr).toContain('Get a new code with: pay readers activation-code');
    // --json keeps the documented error object: the hint is for a person.
    const json = await sb.pay(['readers', 'activate', '--activation-code', 'NOPE-0000', '--serial', 'SN-HINT-0003', '--model', 'a-countertop', '--json']);
    expect(JSON.parse(json.stderr).error).toMatchObject({ code: 'parameter_invalid', param: 'activation_code', exit_code: 1 });
  });

  // A field given under either spelling: its error names the spelling given (--card-number said 'Invalid --card').
  it('a bad value names the flag as it was given, --card-number or --card, --serial-number or --serial', async () => {
    const long = 'S'.repeat(41);
    const cases: Array<[string[], string]> = [
      [['payment-methods', 'create', '--card-number', '4242424242424241', '--exp', '12/34', '--cvc', '123'], '--card-number'],
      [['payment-methods', 'create', '--card', '4242424242424241', '--exp', '12/34', '--cvc', '123'], '--card'],
      [['payment-methods', 'create', '--type', 'card_present', '--reader', 'tmr_123', '--card-number', '4242424242424242'], '--card-number'],
      [['readers', 'present', 'tmr_123', '--card-number', '1234'], '--card-number'],
      [['readers', 'present', 'tmr_123', '--card', '1234'], '--card'],
      [['readers', 'activate', '--activation-code', 'ABCD-1234', '--serial-number', long, '--model', 'a-countertop'], '--serial-number'],
      [['readers', 'activate', '--activation-code', 'ABCD-1234', '--serial', long, '--model', 'a-countertop'], '--serial'],
      [['terminal', 'simulate', '--processor', 'A', '--model', 'a-countertop', '--serial-number', long], '--serial-number'],
      [['terminal', 'simulate', '--processor', 'A', '--model', 'a-countertop', '--card-number', '1234'], '--card-number'],
      [['terminal', 'simulate', '--processor', 'A', '--model', 'a-countertop', '--card', '1234'], '--card'],
    ];
    for (const [args, named] of cases) {
      const result = await sb.pay(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(new RegExp(`^✗ (Invalid )?${named}[: ]`));
    }
  });
});
