import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { baseEnv, PAY_BIN, runPay } from './harness.js';

const RECORDER = fileURLToPath(new URL('./fixtures/record-modules.mjs', import.meta.url));
const BUNDLE = new URL('../../dist/bundle/', import.meta.url).href;
/** esbuild's account of the CLI's bundle (scripts/bundle.js): the modules each chunk holds. */
const META = JSON.parse(readFileSync(new URL('meta.json', BUNDLE), 'utf8')) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
const dir = mkdtempSync(join(tmpdir(), 'pay-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The module URLs `pay <args>` resolves, from a recorder loaded with --import. */
async function urlsLoadedBy(args: string[]): Promise<string[]> {
  const out = join(dir, `${args.join('_').replace(/\W/g, '')}.txt`);
  const result = await execa(process.execPath, ['--import', RECORDER, PAY_BIN, ...args], {
    env: baseEnv(dir, { RECORD_MODULES: out }),
    extendEnv: false,
    reject: false,
  });
  expect(result.exitCode).toBe(0);
  return readFileSync(out, 'utf8').split('\n');
}

/**
 * The modules `pay <args>` loaded: each chunk of the bundle it loaded stands for the
 * modules (ours under dist/, packages under node_modules/) it was built from.
 */
async function modulesLoadedBy(args: string[]): Promise<string[]> {
  const urls = await urlsLoadedBy(args);
  return urls.flatMap((url) => {
    if (!url.startsWith(BUNDLE) || url.endsWith('/version.cjs')) return [url];
    const chunk = META.outputs[`dist/bundle/${url.slice(BUNDLE.length)}`];
    expect(chunk, `${url} is a chunk of the bundle`).toBeDefined();
    return Object.keys(chunk!.inputs);
  });
}

const packageOf = (module: string) => /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(module)?.[1];
const packages = (modules: string[]) => new Set(modules.map(packageOf).filter(Boolean));
const ofSandbox = (modules: string[]) => modules.filter((m) => /(^|\/)dist\/sandbox\//.test(m));
const HEAVY = ['fastify', '@inquirer/prompts', '@inquirer/core', 'ora', 'undici', 'ws', 'conf', 'cli-table3'];

describe('start-up loads only what the command needs', () => {
  it('pay --version loads only the bin and the version module: no package, not even the program', async () => {
    const urls = await urlsLoadedBy(['--version']);
    const ours = urls.filter((u) => u.startsWith('file:')).map((u) => u.replace(/^.*\/(bin|dist)\//, '$1/'));
    expect(ours.sort()).toEqual(['bin/pay.js', 'dist/bundle/version.cjs']);
    expect(urls.filter((u) => !u.startsWith('file:') && !u.startsWith('node:'))).toEqual([]);
  });

  it.each([[['--help']], [['customers', '--help']], [['customers', 'create', '--help']], [['api', '--help']], [['sandbox', 'start', '--help']], [['profiles', 'add', '--help']]])(
    'pay %s loads no sandbox, fastify, prompt, spinner or HTTP module',
    async (args) => {
      const modules = await modulesLoadedBy(args);
      const loaded = packages(modules);
      expect(loaded.has('commander')).toBe(true);
      expect(HEAVY.filter((name) => loaded.has(name))).toEqual([]);
      expect(ofSandbox(modules)).toEqual([]);
    },
  );

  it('a request to the running sandbox profile makes no health check first: nothing of the sandbox loads, nor the validation library', async () => {
    const env = baseEnv(dir);
    const started = await runPay(['sandbox', 'start', '--detach', '--port', '0', '--memory', '--json'], { env });
    expect(started.exitCode, started.stderr).toBe(0);
    try {
      const modules = await modulesLoadedBy(['customers', 'list', '--json']);
      expect(ofSandbox(modules)).toEqual([]);
      // A list of the flags' defaults is valid as it is; the profile's rules are plain code.
      expect(packages(modules).has('zod')).toBe(false);
      // JSON needs no colour; an HTTP/1.1 request neither http2 nor tls; a read no random ids.
      expect(packages(modules).has('chalk')).toBe(false);
      expect(['node:http2', 'node:tls', 'node:crypto', 'node:child_process'].filter((name) => modules.includes(name))).toEqual([]);
    } finally {
      await runPay(['sandbox', 'stop'], { env });
    }
  });
});

describe('an older Node', () => {
  /** `pay <args>` as a Node of another version would run it: process.versions says so. */
  async function asNode(version: string, args: string[]) {
    const preload = join(dir, `node-${version}.cjs`);
    writeFileSync(preload, `Object.defineProperty(process.versions, 'node', { value: ${JSON.stringify(version)} });\n`);
    return execa(process.execPath, ['--require', preload, PAY_BIN, ...args], { env: baseEnv(dir), extendEnv: false, reject: false });
  }

  it('is refused up front with the version needed, exit 1, before anything runs', async () => {
    const old = await asNode('22.11.0', ['customers', 'list', '--json']);
    expect(old.exitCode).toBe(1);
    expect(old.stdout).toBe('');
    expect(old.stderr).toBe('✗ pay needs Node.js 24 or later; this is Node.js 22.11.0. Install Node.js 24, or run pay through npx in its project, which brings its own.');
    // --version still answers, and the Node it asks for runs every command.
    expect((await asNode('22.11.0', ['--version'])).stdout).toMatch(/^\d+\.\d+\.\d+/);
    expect((await asNode('24.0.0', ['profiles', 'list', '--json'])).exitCode).toBe(0);
  });
});
