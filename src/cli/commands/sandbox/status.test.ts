import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliEnv, runCli } from '../../../../test/support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'pay-status-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('pay sandbox status', () => {
  it('when the sandbox is not running, exits 7 and suggests starting it (not running status again)', async () => {
    const result = await runCli(['sandbox', 'status'], { env: cliEnv(dir) });
    expect(result).toEqual({
      code: 7,
      stdout: '',
      stderr: '✗ The sandbox is not running. Start it with: pay sandbox start (or pay sandbox start --detach to run it in the background).',
    });
    const json = await runCli(['sandbox', 'status', '--json'], { env: cliEnv(dir) });
    expect(json.code).toBe(7);
    expect(JSON.parse(json.stdout)).toEqual({ running: false });
    expect(JSON.parse(json.stderr).error).toMatchObject({ code: 'not_running', exit_code: 7 });
  });
});
