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
});
