import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { baseEnv, type PayProcess, runPay, spawnPay } from './harness.js';

// Issue 9, item 7: exposure by choice only. A sandbox on a non-loopback address says
// what becomes reachable, and its ready line shows where it really listens.

const started: Array<{ process: PayProcess; dir: string }> = [];
afterEach(async () => {
  for (const { process, dir } of started.splice(0)) {
    process.signal('SIGTERM');
    await process.exited();
    rmSync(dir, { recursive: true, force: true });
  }
});

function start(...args: string[]): PayProcess {
  const dir = mkdtempSync(join(tmpdir(), 'pay-host-'));
  const process = spawnPay(['sandbox', 'start', '--memory', '--port', '0', ...args], baseEnv(dir));
  started.push({ process, dir });
  return process;
}

describe('pay sandbox start --host', () => {
  it('0.0.0.0: a warning on stderr naming what is exposed, and the real address in the ready line', async () => {
    const sandbox = start('--host', '0.0.0.0');
    const line = await sandbox.line(/^Sandbox ready/);
    expect(line).toMatch(/^Sandbox ready at http:\/\/127\.0\.0\.1:(\d+) \(listening on 0\.0\.0\.0:\1, every interface\)/);
    const stderr = sandbox.stderr();
    expect(stderr).toMatch(/listens on 0\.0\.0\.0:\d+ \(every network interface\), not only on this machine/);
    for (const exposed of ['API', "every account's customers", 'hosted checkout', 'listen tunnels', 'terminal readers', 'plain HTTP']) {
      expect(stderr).toContain(exposed);
    }
  });

  it('--json: the ready line names the address too', async () => {
    const sandbox = start('--host', '0.0.0.0', '--json');
    const ready = JSON.parse(await sandbox.line(/^\{/));
    expect(ready).toMatchObject({ base_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), listening: expect.stringMatching(/^0\.0\.0\.0:\d+$/) });
    expect(ready.listening.split(':')[1]).toBe(new URL(ready.base_url).port);
    await sandbox.said(/not only on this machine/);
  });

  it('--detach: the starter tells the warning its background sandbox gave, once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pay-host-'));
    try {
      const detached = await runPay(['sandbox', 'start', '--detach', '--memory', '--port', '0', '--host', '0.0.0.0', '--json'], { env: baseEnv(dir) });
      expect(detached.exitCode, detached.stderr).toBe(0);
      expect(detached.stderr.match(/not only on this machine/g)).toHaveLength(1);
    } finally {
      await runPay(['sandbox', 'stop'], { env: baseEnv(dir) });
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--detach again: the running sandbox\'s ready line still names the address it listens on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pay-host-'));
    try {
      const first = await runPay(['sandbox', 'start', '--detach', '--memory', '--port', '0', '--host', '0.0.0.0', '--json'], { env: baseEnv(dir) });
      expect(first.exitCode, first.stderr).toBe(0);
      const again = await runPay(['sandbox', 'start', '--detach', '--json'], { env: baseEnv(dir) });
      expect(again.exitCode, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout)).toEqual(JSON.parse(first.stdout));
      const human = await runPay(['sandbox', 'start', '--detach'], { env: baseEnv(dir) });
      expect(human.stdout).toMatch(/^Sandbox already running at http:\/\/127\.0\.0\.1:(\d+) \(listening on 0\.0\.0\.0:\1, every interface\)/);
    } finally {
      await runPay(['sandbox', 'stop'], { env: baseEnv(dir) });
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('loopback (the default): no warning', async () => {
    const sandbox = start();
    expect(await sandbox.line(/^Sandbox ready/)).toMatch(/^Sandbox ready at http:\/\/127\.0\.0\.1:\d+ · account/);
    expect(sandbox.stderr()).not.toMatch(/not only on this machine/);
  });
});
