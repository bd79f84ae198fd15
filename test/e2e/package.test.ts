import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
/** The repo's pinned Node 24 (the machine's bare node may be older, as a user's may not). */
const NODE_BIN = join(dirname(createRequire(import.meta.url).resolve('node/package.json')), 'bin');

/**
 * A shell as a user's: Node 24 first on PATH, none of this run's npm or PAY_ variables,
 * its own config dir.
 */
function userEnv(configDir: string): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(npm_|PAY_|INIT_CWD$|NODE_OPTIONS$|VITEST|FORCE_COLOR$)/i.test(key)) env[key] = value;
  }
  return { ...env, PATH: `${NODE_BIN}${delimiter}${process.env.PATH ?? ''}`, PAY_CONFIG_DIR: configDir, NO_COLOR: '1', CI: '1' };
}

const dir = mkdtempSync(join(tmpdir(), 'pay-package-'));
const app = join(dir, 'app');
const env = userEnv(join(dir, 'config'));
const run = (file: string, args: string[], cwd: string, timeout = 120_000) =>
  execa(file, args, { cwd, env, extendEnv: false, reject: false, timeout, stdin: 'ignore' });
let tarball = '';

beforeAll(async () => {
  // The dist/ the suite built: `prepare` would rebuild it under the other e2e tests' feet.
  const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], REPO);
  expect(packed.exitCode, packed.stderr).toBe(0);
  tarball = join(dir, (JSON.parse(packed.stdout) as Array<{ filename: string }>)[0]!.filename);
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  // The app's own dev dependencies for the README's example: vitest and Node's types, as the repo pins them.
  const dev = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies;
  const installed = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, `vitest@${dev.vitest}`, `@types/node@${dev['@types/node']}`], app, 170_000);
  expect(installed.exitCode, installed.stderr).toBe(0);
}, 180_000);

afterAll(async () => {
  await run('npx', ['--no-install', 'pay', 'sandbox', 'stop'], app, 30_000);
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('the npm package', () => {
  it('ships the CLI\'s bundle, the library entries with type declarations, bin, completions and the built-in flows, and nothing else', async () => {
    const dry = await run('npm', ['pack', '--dry-run', '--ignore-scripts', '--json'], REPO);
    expect(dry.exitCode, dry.stderr).toBe(0);
    const files = (JSON.parse(dry.stdout) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path);
    const allowed = /^(package\.json|README\.md|bin\/(pay\.js|package\.json)|completions\/pay\.(bash|zsh|fish)|flows\/[\w.]+\.json|dist\/[\w/.-]+\.(c?js|d\.ts))$/;
    expect(files.filter((path) => !allowed.test(path))).toEqual([]);
    expect(files.filter((path) => /\.test\.|(^|\/)test\//.test(path))).toEqual([]);
    expect(files).toEqual(expect.arrayContaining(['bin/pay.js', 'bin/package.json', 'dist/bundle/main.js', 'dist/bundle/version.cjs', 'completions/pay.bash', 'dist/index.d.ts', 'dist/sandbox/testing.d.ts', 'flows/payment_intent.succeeded.json']));
    // The CLI runs from its bundle: its unbundled modules, and the engines only it runs, stay out.
    expect(files.filter((path) => /^dist\/(cli|webhooks|terminal|operator|flows)\//.test(path))).toEqual([]);
  });

  it('installs from the tarball alone, and pay runs from it: --version, sandbox start --detach, trigger', async () => {
    const version = await run('npx', ['--no-install', 'pay', '--version'], app);
    expect(version.exitCode, version.stderr).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);

    const started = await run('npx', ['--no-install', 'pay', 'sandbox', 'start', '--detach', '--port', '0', '--json'], app);
    expect(started.exitCode, started.stderr).toBe(0);
    const ready = JSON.parse(started.stdout) as { base_url: string; account: string; pid: number };
    expect(ready.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const triggered = await run('npx', ['--no-install', 'pay', 'trigger', 'payment_intent.succeeded', '--json'], app);
    expect(triggered.exitCode, triggered.stderr).toBe(0);
    const output = JSON.parse(triggered.stdout) as { created: Record<string, string> };
    expect(output.created.payment_intent).toMatch(/^pi_/);
    // It ran the package's own copy, not this repo's.
    const which = await run('node', ['-e', 'console.log(require.resolve("pay/package.json"))'], app);
    expect(which.stdout.trim()).toBe(join(app, 'node_modules', 'pay', 'package.json'));
  });
});

/** The README's example test, verbatim: the fenced block after its marker. */
function readmeExample(name: string): string {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const at = readme.indexOf(`<!-- example: ${name}`);
  expect(at, `README has no example ${name}`).toBeGreaterThan(-1);
  const block = /```\w*\n([\s\S]*?)```/.exec(readme.slice(at));
  return block![1]!;
}

describe('the library, from the installed package', () => {
  it("runs the README's vitest example: import { createClient } from 'pay', { startSandbox } from 'pay/testing'", async () => {
    writeFileSync(join(app, 'billing.test.ts'), readmeExample('billing.test.ts'));
    const result = await run('npx', ['--no-install', 'vitest', 'run', '--root', app], app);
    expect(result.exitCode, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stdout).toMatch(/billing\.test\.ts.*1 test/);
    expect(result.stdout).toMatch(/Tests\s+1 passed/);
  });

  it('type-checks the example against the declarations it ships (strict)', async () => {
    writeFileSync(join(app, 'billing.test.ts'), readmeExample('billing.test.ts'));
    const tsconfig = { compilerOptions: { target: 'es2024', module: 'nodenext', strict: true, noEmit: true, types: ['node'] }, include: ['billing.test.ts'] };
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(tsconfig));
    const tsc = await run(join(REPO, 'node_modules', '.bin', 'tsc'), ['-p', app], app);
    expect(tsc.exitCode, tsc.stdout + tsc.stderr).toBe(0);
    // And a mistake in it is caught: the client is typed, not any.
    writeFileSync(join(app, 'billing.test.ts'), readmeExample('billing.test.ts').replace("interval_unit: 'month'", "interval_unit: 'fortnight'"));
    const wrong = await run(join(REPO, 'node_modules', '.bin', 'tsc'), ['-p', app], app);
    expect(wrong.exitCode).not.toBe(0);
    expect(wrong.stdout).toMatch(/billing\.test\.ts.*'"fortnight"'/);
  });
});

describe('In CI: the README\'s job script, from the installed package', () => {
  const copy = () => {
    const dir = join(app, 'ci');
    mkdirSync(dir, { recursive: true });
    for (const file of ['ci.sh', 'app.mjs']) copyFileSync(join(REPO, 'examples', file), join(dir, file));
    return join(dir, 'ci.sh');
  };

  it('is the script examples/ci.sh, verbatim', () => {
    expect(readmeExample('examples/ci.sh')).toBe(readFileSync(join(REPO, 'examples', 'ci.sh'), 'utf8'));
  });

  it('runs the job: sandbox, app, listen, a flow; exit 0 when the app took every event', async () => {
    const job = await run('bash', [copy()], app);
    const output = `${job.stdout}\n${job.stderr}`;
    expect(job.exitCode, output).toBe(0);
    for (const type of ['payment_intent.created', 'payment_intent.succeeded', 'charge.succeeded']) {
      expect(output).toMatch(new RegExp(`app: ${type.replace('.', '\\.')} evt_`));
    }
    expect(job.stdout).toContain('Stopped after 3 events (--max-events).');
    expect(job.stderr).toMatch(/Stopped the sandbox/);
  });

  it('fails the job (exit 1) naming the event the app refused', async () => {
    const job = await execa('bash', [copy()], { cwd: app, env: { ...env, FAIL_EVENTS: 'payment_intent.created' }, extendEnv: false, reject: false, timeout: 120_000, stdin: 'ignore' });
    expect(job.exitCode, `${job.stdout}\n${job.stderr}`).toBe(1);
    expect(job.stdout).toMatch(/The app did not take 1 event \(--fail-on-error\):\n {2}evt_\w+ payment_intent\.created · POST http:\/\/127\.0\.0\.1:\d+\/webhooks → \[400\] · refused, not retried/);
    expect(job.stderr).toMatch(/Stopped the sandbox/);
  });
});
