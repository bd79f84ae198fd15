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
