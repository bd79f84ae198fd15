import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, CredentialsError } from './errors.js';
import { resolveProfile } from './resolve.js';
import { ProfileStore } from './store.js';

const dir = mkdtempSync(join(tmpdir(), 'pay-resolve-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const store = new ProfileStore(dir);
await store.set('staging', { base_url: 'https://staging.example.com', account: 'acct_staging', api_key: 'sk_staging_0123456789', header_prefix: 'pay' }, true);
await store.set('prod', { base_url: 'https://prod.example.com', account: 'acct_prod', api_key: 'sk_prod_0123456789ab', header_prefix: 'acme' });
const stores = () => store;

describe('resolveProfile: flag > env > profile', () => {
  it('uses the default profile when nothing else says', () => {
    expect(resolveProfile({}, {}, stores)).toMatchObject({ name: 'staging', base_url: 'https://staging.example.com', sandbox: false });
  });

  it('PAY_PROFILE picks a profile; the --profile flag beats it', () => {
    expect(resolveProfile({}, { PAY_PROFILE: 'prod' }, stores)).toMatchObject({ name: 'prod', header_prefix: 'acme' });
    expect(resolveProfile({ profile: 'staging' }, { PAY_PROFILE: 'prod' }, stores)).toMatchObject({ name: 'staging' });
  });

  it('environment values override the profile field by field', () => {
    const resolved = resolveProfile({ profile: 'prod' }, { PAY_BASE_URL: 'http://127.0.0.1:9' }, stores);
    expect(resolved).toMatchObject({ name: 'prod', base_url: 'http://127.0.0.1:9', account: 'acct_prod', api_key: 'sk_prod_0123456789ab' });
  });

  it('flag values beat environment values', () => {
    const resolved = resolveProfile({ baseUrl: 'https://flag.example.com' }, { PAY_BASE_URL: 'https://env.example.com' }, stores);
    expect(resolved.base_url).toBe('https://flag.example.com');
  });

  it('the three of base URL, account and key in the environment need no config file', () => {
    const env = { PAY_BASE_URL: 'https://ci.example.com', PAY_ACCOUNT: 'acct_ci', PAY_API_KEY: 'sk_ci_0123456789abcdef' };
    const noStore = () => {
      throw new Error('the config file was read');
    };
    expect(resolveProfile({}, env, noStore)).toMatchObject({ name: '(environment)', account: 'acct_ci', header_prefix: 'pay', sandbox: false });
  });

  it('an unknown profile is a usage error listing the known ones', () => {
    expect(() => resolveProfile({ profile: 'nope' }, {}, stores)).toThrow(ConfigError);
    expect(() => resolveProfile({ profile: 'nope' }, {}, stores)).toThrow(/prod, staging/);
  });

  it('a name no profile can have (an empty --profile) says the rule, not how to add it', () => {
    expect(() => resolveProfile({ profile: '' }, {}, stores)).toThrow("Invalid --profile '': a profile name is letters, digits, - and _, starting with a letter or digit. Profiles: prod, staging.");
    expect(() => resolveProfile({}, { PAY_PROFILE: 'my profile' }, stores)).toThrow(/^Invalid PAY_PROFILE 'my profile': a profile name is/);
  });

  it('a value that breaks a profile rule, from the file or the environment, is a config error naming the field', async () => {
    const edited = new ProfileStore(join(dir, 'edited'));
    await edited.set('hand', { base_url: 'localhost:12111', account: 'acct_1', api_key: 'sk_test_0123456789', header_prefix: 'pay' });
    expect(() => resolveProfile({ profile: 'hand' }, {}, () => edited)).toThrow(/Profile 'hand': base_url must be an http\(s\) URL/);
    expect(() => resolveProfile({ profile: 'staging' }, { PAY_BASE_URL: 'ftp://x' }, stores)).toThrow(ConfigError);
  });

  it('empty environment variables count as unset', () => {
    const env = { PAY_PROFILE: '', PAY_BASE_URL: '', PAY_ACCOUNT: '', PAY_API_KEY: '' };
    expect(resolveProfile({}, env, stores)).toMatchObject({ name: 'staging', api_key: 'sk_staging_0123456789' });
  });

  it('with no profile at all, the sandbox is the default (started on demand)', () => {
    const blank = new ProfileStore(join(dir, 'fresh'));
    expect(resolveProfile({}, {}, () => blank)).toMatchObject({ name: 'sandbox', sandbox: true });
  });

  it('a base URL in the environment that no sandbox here can have is another service: none is started for it, and its key is asked for', async () => {
    const blank = new ProfileStore(join(dir, 'fresh-elsewhere'));
    // On this machine, before the first start: where to start it.
    expect(resolveProfile({}, { PAY_BASE_URL: 'http://127.0.0.1:12999' }, () => blank)).toMatchObject({ name: 'sandbox', sandbox: true });
    const env = { PAY_BASE_URL: 'https://api.example.com', PAY_ACCOUNT: 'acct_ci' };
    expect(() => resolveProfile({}, env, () => blank)).toThrow(CredentialsError);
    expect(() => resolveProfile({}, env, () => blank)).toThrow(/^No api_key: set PAY_API_KEY too/);
    const started = new ProfileStore(join(dir, 'started'));
    await started.set('sandbox', { base_url: 'http://127.0.0.1:12111', account: 'acct_sb', api_key: 'sk_test_0123456789abcdef', header_prefix: 'pay', sandbox: true });
    expect(resolveProfile({}, { PAY_BASE_URL: 'http://127.0.0.1:9' }, () => started)).toMatchObject({ base_url: 'http://127.0.0.1:9', sandbox: false });
    expect(resolveProfile({}, { PAY_BASE_URL: 'http://127.0.0.1:12111' }, () => started)).toMatchObject({ sandbox: true });
    // Once the sandbox has a profile, its key is still not lent to a service elsewhere: that service's key is asked for.
    expect(() => resolveProfile({}, env, () => started)).toThrow(/^No api_key: set PAY_API_KEY too/);
    expect(() => resolveProfile({ profile: 'sandbox' }, { PAY_BASE_URL: 'https://api.example.com' }, () => started)).toThrow(CredentialsError);
    expect(resolveProfile({}, { ...env, PAY_API_KEY: 'sk_live_ci_0123456789' }, () => started)).toMatchObject({ base_url: 'https://api.example.com', account: 'acct_ci', api_key: 'sk_live_ci_0123456789', sandbox: false });
  });

  it('a bad value from the environment is named by its variable, not blamed on the profile', () => {
    expect(() => resolveProfile({}, { PAY_API_KEY: 'sk_test with space' }, stores)).toThrow(/^PAY_API_KEY must be/);
    expect(() => resolveProfile({}, { PAY_BASE_URL: 'ftp://x' }, stores)).toThrow(/^PAY_BASE_URL must be an http\(s\) URL/);
    expect(() => resolveProfile({}, { PAY_HEADER_PREFIX: 'Acme' }, stores)).toThrow(/^PAY_HEADER_PREFIX must be lowercase letters/);
  });

  it('so is one of the environment alone (CI, no config file)', () => {
    const ci = { PAY_BASE_URL: 'https://api.example.com', PAY_ACCOUNT: 'acct_ci', PAY_API_KEY: 'sk_live_ci_0123456789' };
    expect(() => resolveProfile({}, { ...ci, PAY_BASE_URL: 'ftp://x' }, stores)).toThrow(/^PAY_BASE_URL must be an http\(s\) URL/);
    expect(() => resolveProfile({}, { ...ci, PAY_ACCOUNT: 'acct ci' }, stores)).toThrow(/^PAY_ACCOUNT must be an account id/);
    expect(() => resolveProfile({}, { ...ci, PAY_API_KEY: 'sk_live with space' }, stores)).toThrow(/^PAY_API_KEY must be printable/);
    expect(() => resolveProfile({}, { ...ci, PAY_HEADER_PREFIX: 'Acme' }, stores)).toThrow(/^PAY_HEADER_PREFIX must be lowercase letters/);
  });
});
