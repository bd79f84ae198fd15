import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { baseEnv, PAY_BIN, runPay } from './harness.js';

const RECORDER = fileURLToPath(new URL('./fixtures/record-modules.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'pay-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The module URLs `pay <args>` resolves, from a recorder loaded with --import. */
async function modulesLoadedBy(args: string[]): Promise<string[]> {
  const out = join(dir, `${args.join('_').replace(/\W/g, '')}.txt`);
  const result = await execa(process.execPath, ['--import', RECORDER, PAY_BIN, ...args], {
    env: baseEnv(dir, { RECORD_MODULES: out }),
    extendEnv: false,
    reject: false,
  });
  expect(result.exitCode).toBe(0);
  return readFileSync(out, 'utf8').split('\n');
}

const packageOf = (url: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];
const packages = (urls: string[]) => new Set(urls.map(packageOf).filter(Boolean));
const HEAVY = ['fastify', '@inquirer/prompts', '@inquirer/core', 'ora', 'undici', 'ws', 'conf', 'cli-table3'];

describe('start-up loads only what the command needs', () => {
  it('pay --version loads only the bin and the version module: no package, not even the program', async () => {
    const urls = await modulesLoadedBy(['--version']);
    const ours = urls.filter((u) => u.startsWith('file:')).map((u) => u.replace(/^.*\/(bin|dist)\//, '$1/'));
    expect(ours.sort()).toEqual(['bin/pay.js', 'dist/cli/version.js']);
    expect(urls.filter((u) => !u.startsWith('file:') && !u.startsWith('node:'))).toEqual([]);
  });

  it.each([[['--help']], [['customers', '--help']], [['customers', 'create', '--help']], [['api', '--help']], [['sandbox', 'start', '--help']], [['profiles', 'add', '--help']]])(
    'pay %s loads no sandbox, fastify, prompt, spinner or HTTP module',
    async (args) => {
      const urls = await modulesLoadedBy(args);
      const loaded = packages(urls);
      expect(loaded.has('commander')).toBe(true);
      expect(HEAVY.filter((name) => loaded.has(name))).toEqual([]);
      expect(urls.filter((u) => u.includes('/dist/sandbox/'))).toEqual([]);
    },
  );

  it('a request to the running sandbox profile makes no health check first: nothing of the sandbox loads', async () => {
    const env = baseEnv(dir);
    const started = await runPay(['sandbox', 'start', '--detach', '--port', '0', '--memory', '--json'], { env });
    expect(started.exitCode, started.stderr).toBe(0);
    try {
      const urls = await modulesLoadedBy(['customers', 'list', '--json']);
      expect(urls.filter((u) => u.includes('/dist/sandbox/'))).toEqual([]);
    } finally {
      await runPay(['sandbox', 'stop'], { env });
    }
  });
});
