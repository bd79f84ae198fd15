import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { baseEnv, runPay } from './harness.js';

// Several pay processes at once on one config dir: a CI job running its tests in
// parallel, a developer with listen in one terminal and commands in another.

const N = 8;
const dirs: string[] = [];
/** Config dirs of the running test, whose sandboxes are stopped after it. */
let current: string[] = [];
function configDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pay-races-'));
  dirs.push(dir);
  current.push(dir);
  return dir;
}
const config = (dir: string) => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
afterEach(async () => {
  for (const dir of current) await runPay(['sandbox', 'stop'], { env: baseEnv(dir) });
  current = [];
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('pay processes at once on one config dir', () => {
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
