import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv as baseEnv, cliSandbox, runCli as runPay } from '../../../../test/support/cli.js';

const sb = cliSandbox();
/** The second account's profile, written by `pay sandbox accounts add`. */
let second: { account: string; apiKey: string };
const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'pay-profiles-'));
  dirs.push(dir);
  return dir;
};

beforeAll(async () => {
  const added = await sb.pay(['sandbox', 'accounts', 'add', '--name', 'second', '--json']);
  expect(added.code).toBe(0);
  const config = JSON.parse(readFileSync(join(sb.configDir, 'config.json'), 'utf8'));
  second = { account: config.profiles.second.account, apiKey: config.profiles.second.api_key };
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The profile `pay` would use, as `profiles show --json` reports it. */
async function shown(args: string[] = [], env: Record<string, string | undefined> = {}) {
  const result = await sb.pay(['profiles', 'show', '--json', ...args], { env });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

describe('profile precedence: flag > env > file', () => {
  it('the default profile when nothing says otherwise', async () => {
    expect(await shown()).toMatchObject({ name: 'sandbox', account: sb.account });
  });

  it('PAY_PROFILE chooses a profile, and --profile beats it', async () => {
    expect(await shown([], { PAY_PROFILE: 'second' })).toMatchObject({ name: 'second', account: second.account });
    expect(await shown(['--profile', 'sandbox'], { PAY_PROFILE: 'second' })).toMatchObject({ name: 'sandbox', account: sb.account });
  });

  it('requests really go where the precedence says', async () => {
    const mine = await sb.json(['customers', 'create', '--email', 'precedence@example.com']);
    const asSecond = await sb.pay(['customers', 'get', mine.id], { env: { PAY_PROFILE: 'second' } });
    expect(asSecond.code).toBe(4);
    const flagWins = await sb.pay(['customers', 'get', mine.id, '--profile', 'sandbox'], { env: { PAY_PROFILE: 'second' } });
    expect(flagWins.code).toBe(0);
    // Environment values override the chosen profile's, field by field.
    const envKey = await sb.pay(['customers', 'get', mine.id], { env: { PAY_ACCOUNT: second.account, PAY_API_KEY: second.apiKey } });
    expect(envKey.code).toBe(4);
  });

  it('PAY_BASE_URL, PAY_ACCOUNT and PAY_API_KEY alone work with no config file', async () => {
    const dir = freshDir();
    const env = baseEnv(dir, { PAY_BASE_URL: sb.baseUrl, PAY_ACCOUNT: sb.account, PAY_API_KEY: sb.apiKey });
    const created = await runPay(['customers', 'create', '--email', 'ci@example.com', '--json'], { env });
    expect(created.code, created.stderr).toBe(0);
    expect((await sb.http('GET', `/v1/customers/${JSON.parse(created.stdout).id}`)).status).toBe(200);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('an unknown profile is a usage error that lists the known ones', async () => {
    const result = await sb.pay(['customers', 'list', '--profile', 'nope']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("No profile named 'nope'");
    expect(result.stderr).toContain('second');
  });
});

describe('pay profiles add|list|use|show|remove in a script', () => {
  const key = 'sk_live_script_0123456789abcdefghij';

  it('adds from flags and a piped key, lists, switches, shows and removes', async () => {
    const dir = freshDir();
    const env = baseEnv(dir);
    const add = await runPay(['profiles', 'add', 'staging', '--base-url', 'https://staging.example.com', '--account', 'acct_staging', '--api-key-stdin', '--header-prefix', 'acme'], { env, input: key });
    expect(add.code, add.stderr).toBe(0);
    expect(add.stderr).toContain("Saved profile 'staging'");
    await runPay(['profiles', 'add', 'prod', '--base-url', 'https://prod.example.com', '--account', 'acct_prod', '--api-key', key], { env });

    const list = await runPay(['profiles', 'list'], { env });
    expect(list.stdout.split('\n').map((line) => line.split('\t').slice(0, 2))).toEqual([['', 'prod'], ['*', 'staging']]);

    expect((await runPay(['profiles', 'use', 'prod'], { env })).code).toBe(0);
    const show = JSON.parse((await runPay(['profiles', 'show', '--json'], { env })).stdout);
    expect(show).toMatchObject({ name: 'prod', base_url: 'https://prod.example.com', header_prefix: 'pay', config_file: join(dir, 'config.json') });
    expect(JSON.parse((await runPay(['profiles', 'show', '--json', '--profile', 'staging'], { env })).stdout).header_prefix).toBe('acme');

    // Destructive: a script says --yes, or nothing is removed.
    const unsure = await runPay(['profiles', 'remove', 'prod'], { env });
    expect(unsure.code).toBe(2);
    expect(unsure.stderr).toContain('--yes');
    expect(JSON.parse((await runPay(['profiles', 'list', '--json'], { env })).stdout).data.map((p: { name: string }) => p.name)).toEqual(['prod', 'staging']);
    expect((await runPay(['profiles', 'remove', 'prod', '--yes'], { env })).code).toBe(0);
    expect((await runPay(['profiles', 'remove', 'prod', '--yes'], { env })).code).toBe(2);
    expect(JSON.parse((await runPay(['profiles', 'list', '--json'], { env })).stdout).data.map((p: { name: string }) => p.name)).toEqual(['staging']);
  });

  it('without a TTY, a missing value is an error naming its flag, never a prompt', async () => {
    const env = baseEnv(freshDir());
    const result = await runPay(['profiles', 'add', 'x', '--account', 'acct_1'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--base-url');
    expect(result.stderr).toContain('no TTY');
  });

  it('rejects a bad value before writing anything', async () => {
    const dir = freshDir();
    const result = await runPay(['profiles', 'add', 'x', '--base-url', 'ftp://x', '--account', 'a', '--api-key', 'k'], { env: baseEnv(dir) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--base-url');
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('pay profiles use says when PAY_PROFILE, which wins over the default, names another profile', async () => {
    const dir = freshDir();
    for (const name of ['a', 'b']) await runPay(['profiles', 'add', name, '--base-url', 'https://x.example.com', '--account', 'acct_x', '--api-key', 'sk_test_use_0123456789'], { env: baseEnv(dir) });
    expect(await runPay(['profiles', 'use', 'b'], { env: baseEnv(dir, { PAY_PROFILE: 'a' }) })).toEqual({
      code: 0,
      stdout: '',
      stderr: "✓ 'b' is now the default profile.\n! PAY_PROFILE=a is set, and wins over the default: commands here use 'a' until it is unset.",
    });
    expect((await runPay(['profiles', 'use', 'a'], { env: baseEnv(dir, { PAY_PROFILE: 'a' }) })).stderr).toBe("✓ 'a' is now the default profile.");
  });

  it('pay profiles use sandbox goes back to the local sandbox before any sandbox start wrote its profile', async () => {
    const dir = freshDir();
    await runPay(['profiles', 'add', 'staging', '--base-url', 'https://x.example.com', '--account', 'acct_x', '--api-key', 'sk_test_use_0123456789', '--default'], { env: baseEnv(dir) });
    expect(await runPay(['profiles', 'use', 'sandbox'], { env: baseEnv(dir) })).toEqual({ code: 0, stdout: '', stderr: "✓ 'sandbox' is now the default profile." });
    expect(JSON.parse((await runPay(['profiles', 'show', '--json'], { env: baseEnv(dir) })).stdout)).toMatchObject({ name: 'sandbox', sandbox: true });
    // Any other unsaved name is still refused.
    expect((await runPay(['profiles', 'use', 'prod'], { env: baseEnv(dir) })).code).toBe(2);
  });

  it('the name sandbox is the local sandbox\'s: a service\'s profile by that name is refused, as sandbox start would take it over', async () => {
    const dir = freshDir();
    const result = await runPay(['profiles', 'add', 'sandbox', '--base-url', 'https://real.example.com', '--account', 'acct_real', '--api-key', 'sk_live_real_0123456789abcdef'], { env: baseEnv(dir) });
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: "✗ Invalid profile name 'sandbox': it is the local sandbox's profile, which pay sandbox start writes; name this one otherwise, e.g. pay profiles add staging.",
    });
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('a key read with --api-key-stdin is refused naming --api-key-stdin, and an empty stdin as what it is', async () => {
    const dir = freshDir();
    const flags = ['profiles', 'add', 'x', '--base-url', 'https://x.example.com', '--account', 'acct_1', '--api-key-stdin'];
    expect((await runPay(flags, { env: baseEnv(dir), input: '' })).stderr).toBe(
      '✗ Missing --api-key-stdin: stdin was empty; pipe the key in, e.g. printf %s "$KEY" | pay profiles add x --api-key-stdin …',
    );
    expect((await runPay(flags, { env: baseEnv(dir), input: 'sk_test_two words_0123456789' })).stderr).toBe(
      '✗ Invalid --api-key-stdin: must be printable characters, without spaces or line breaks.',
    );
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
    // pay sandbox accounts add --api-key-stdin says the same of an empty stdin, not that the key is too short.
    expect(await runPay(['sandbox', 'accounts', 'add', '--api-key-stdin'], { env: baseEnv(dir), input: '' })).toEqual({
      code: 2,
      stdout: '',
      stderr: '✗ Missing --api-key-stdin: stdin was empty; pipe the key in, e.g. printf %s "$KEY" | pay sandbox accounts add --api-key-stdin …',
    });
  });
});

describe('the config file is its owner\'s alone (0600)', () => {
  const mode = (path: string) => statSync(path).mode & 0o777;

  it('is written 0600, and a wider mode is repaired on the next write', async () => {
    const dir = freshDir();
    const env = baseEnv(dir);
    await runPay(['profiles', 'add', 'a', '--base-url', 'https://a.example.com', '--account', 'acct_a', '--api-key', 'sk_test_mode_0123456789'], { env });
    const file = join(dir, 'config.json');
    expect(mode(file)).toBe(0o600);
    chmodSync(file, 0o644);
    expect((await runPay(['profiles', 'use', 'a'], { env })).code).toBe(0);
    expect(mode(file)).toBe(0o600);
  });
});

describe('a config file edited by hand', () => {
  it('pay profiles list shows a profile missing a value as it is, never crashing', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { half: { base_url: 'https://half.example.com' } } }), { mode: 0o600 });
    const list = await runPay(['profiles', 'list', '--json'], { env: baseEnv(dir) });
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).data).toEqual([{ name: 'half', default: false, base_url: 'https://half.example.com', account: null, api_key: null, header_prefix: null, sandbox: false }]);
    // Using it says what is missing.
    const use = await runPay(['customers', 'list', '--profile', 'half'], { env: baseEnv(dir) });
    expect(use).toMatchObject({ code: 3, stderr: "✗ Profile 'half' has no account: set it with 'pay profiles add half' or PAY_ACCOUNT." });
  });
});

describe('a config file that is not JSON', () => {
  it('is the user\'s to fix (exit 2, config_error), named with what to do, not an unexpected error', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'config.json'), '{"profiles": {', { mode: 0o600 });
    const file = join(dir, 'config.json');
    const message = `${file} is not valid JSON: fix it, or remove it and add the profiles again.`;
    expect(await runPay(['profiles', 'list'], { env: baseEnv(dir) })).toEqual({ code: 2, stdout: '', stderr: `✗ ${message}` });
    const json = await runPay(['customers', 'list', '--json'], { env: baseEnv(dir) });
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stderr)).toEqual({ error: { code: 'config_error', message, exit_code: 2 } });
  });
});
