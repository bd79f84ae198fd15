import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxDbFile } from '../../src/config/paths.js';
import { lockHolder } from '../../src/infra/pid-lock.js';
import { baseEnv, configDirs, PAY_BIN, readConfig as config, runPay } from './harness.js';
import { freePort } from './net.js';
import { until } from '../support/wait.js';

// Several pay processes at once on one config dir: a CI job running its tests in
// parallel, a developer with listen in one terminal and commands in another.

const N = 8;
const configDir = configDirs('pay-races-');

describe('pay processes at once on one config dir', () => {
  it(`${N} commands started together with no sandbox running start one sandbox, and all succeed on its account`, async () => {
    const dir = configDir();
    // Not the default port, which another run may hold: the environment names where to start it.
    const env = baseEnv(dir, { PAY_BASE_URL: `http://127.0.0.1:${await freePort()}` });
    const runs = await Promise.all(Array.from({ length: N }, (_, i) => runPay(['customers', 'create', '--email', `c${i}@example.com`, '--json'], { env })));
    for (const run of runs) expect({ exit: run.exitCode, stderr: run.stderr }).toMatchObject({ exit: 0 });
    // One of them started it; the others found it started.
    expect(runs.filter((run) => run.stderr.includes('Sandbox started at'))).toHaveLength(1);
    const ids = runs.map((run) => JSON.parse(run.stdout).id as string);
    const listed = await runPay(['customers', 'list', '--limit', '100', '--json'], { env });
    expect(JSON.parse(listed.stdout).data.map((c: { id: string }) => c.id).sort()).toEqual(ids.sort());
    expect(config(dir)).toMatchObject({ default_profile: 'sandbox', profiles: { sandbox: { sandbox: true } } });
  });

  it(`${N} scripts' \`sandbox start --detach\` together start one sandbox, and each prints its ready line`, async () => {
    const dir = configDir();
    const env = baseEnv(dir);
    const runs = await Promise.all(Array.from({ length: N }, () => runPay(['sandbox', 'start', '--detach', '--port', '0', '--json'], { env })));
    for (const run of runs) expect({ exit: run.exitCode, stderr: run.stderr }).toMatchObject({ exit: 0 });
    const ready = runs.map((run) => JSON.parse(run.stdout));
    expect(new Set(ready.map((line) => line.pid)).size).toBe(1);
    expect(JSON.parse(readFileSync(join(dir, 'sandbox.json'), 'utf8')).pid).toBe(ready[0].pid);
  });

  it('a sandbox whose starter was killed before its ready line serves on, and the next command uses it', async () => {
    const dir = configDir();
    const env = baseEnv(dir, { PAY_BASE_URL: `http://127.0.0.1:${await freePort()}` });
    // What a command does to start it in the background (daemon.ts startDetached), its end of the pipe then gone as with kill -9.
    const orphan = spawn(process.execPath, [PAY_BIN, 'sandbox', 'start', '--json', '--port', new URL(env.PAY_BASE_URL!).port], { detached: true, stdio: ['ignore', 'pipe', 'ignore'], env });
    orphan.stdout.destroy();
    orphan.unref();
    // The next command, while that sandbox starts: once it holds the database (before that, on a
    // busy machine, the next command could start a sandbox of its own first, which is fine but
    // not this case), and then answers.
    await until(() => lockHolder(`${sandboxDbFile(dir)}.lock`), (holder) => holder === orphan.pid, 'the started sandbox to hold its database', 30_000);
    const next = await runPay(['customers', 'list', '--json'], { env });
    expect({ exit: next.exitCode, stderr: next.stderr }).toMatchObject({ exit: 0 });
    expect(JSON.parse(next.stdout)).toMatchObject({ object: 'list' });
    const status = await runPay(['sandbox', 'status', '--json'], { env });
    expect(JSON.parse(status.stdout)).toMatchObject({ pid: orphan.pid });
  });

  it(`${N} profiles added together are all kept`, async () => {
    const dir = configDir();
    const env = baseEnv(dir);
    const names = Array.from({ length: N }, (_, i) => `p${i}`);
    const runs = await Promise.all(
      names.map((name, i) => runPay(['profiles', 'add', name, '--base-url', 'https://api.example.com', '--account', `acct_${i}`, '--api-key-stdin', '--json'], { env, input: `sk_test_races_${i}_abcdefghijkl` })),
    );
    for (const run of runs) expect({ exit: run.exitCode, stderr: run.stderr }).toMatchObject({ exit: 0 });
    const file = config(dir);
    expect(Object.keys(file.profiles).sort()).toEqual(names);
    expect(names).toContain(file.default_profile);
  });
});
