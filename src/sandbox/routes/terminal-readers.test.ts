import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessSandbox } from '../../../test/support/in-process.js';

let s: Awaited<ReturnType<typeof inProcessSandbox>>;
beforeAll(async () => {
  s = await inProcessSandbox();
});
afterAll(async () => s.close());

describe('terminal readers', () => {
  it('activates a self-owned processor A reader with a support code, once', async () => {
    const code = (await s.call('POST', '/v1/terminal-readers/activation-codes')).body;
    expect(code).toMatchObject({ object: 'terminal_activation_code', expires_at: '2030-01-16T00:00:00Z' });
    expect(code.code).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    const res = await s.call('POST', '/v1/terminal-readers/activate', { activation_code: code.code, serial_number: 'SN-0001', processor: 'A', model: 'a-countertop' });
    expect(res.body).toMatchObject({ object: 'terminal_reader', serial_number: 'SN-0001', processor: 'A', model: 'a-countertop', device_type: 'self_owned', status: 'offline', activated_at: '2030-01-15T00:00:00Z', action: null });
    expect(res.body.id).toMatch(/^tmr_/);
    expect((await s.call('GET', `/v1/terminal-readers/${res.body.id}`)).body).toEqual(res.body);
    expect((await s.call('GET', '/v1/terminal-readers')).body.data.map((r: { id: string }) => r.id)).toContain(res.body.id);
    const reused = await s.call('POST', '/v1/terminal-readers/activate', { activation_code: code.code, serial_number: 'SN-0002', processor: 'A', model: 'a-handheld' });
    expect(reused.body.error).toMatchObject({ param: 'activation_code' });
    expect(reused.body.error.message).toContain(res.body.id);
  });

  it('takes a code as pasted: lowercase, with spaces around it', async () => {
    const code = (await s.call('POST', '/v1/terminal-readers/activation-codes')).body.code;
    const res = await s.call('POST', '/v1/terminal-readers/activate', { activation_code: ` ${code.toLowerCase()}\n`, serial_number: 'SN-0050', processor: 'A', model: 'a-countertop' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'terminal_reader', serial_number: 'SN-0050', device_type: 'self_owned' });
  });

  it('refuses processor B, foreign models, unknown and expired codes, naming the field', async () => {
    const code = (await s.call('POST', '/v1/terminal-readers/activation-codes')).body.code;
    const base = { activation_code: code, serial_number: 'SN-0100', processor: 'A', model: 'a-handheld' };
    for (const [body, param] of [
      [{ ...base, processor: 'B', model: 'b-mobile' }, 'processor'],
      [{ ...base, model: 'b-mobile' }, 'model'],
      [{ ...base, model: 'x' }, 'model'],
      [{ ...base, activation_code: 'NOPE-NOPE' }, 'activation_code'],
      [{ ...base, serial_number: '!' }, 'serial_number'],
    ] as const) {
      const res = await s.call('POST', '/v1/terminal-readers/activate', body);
      expect({ status: res.status, param: res.body.error.param }).toEqual({ status: 400, param });
    }
    await s.call('POST', '/v1/test-helpers/clock/advance', { days: 2 });
    expect((await s.call('POST', '/v1/terminal-readers/activate', base)).body.error.message).toContain('expired');
  });
});
