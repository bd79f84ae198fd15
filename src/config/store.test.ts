import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ProfileStore } from './store.js';

const dirs: string[] = [];
function store(): ProfileStore {
  const dir = mkdtempSync(join(tmpdir(), 'pay-store-'));
  dirs.push(dir);
  return new ProfileStore(join(dir, 'nested', 'pay'));
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const profile = { base_url: 'https://api.example.com', account: 'acct_1', api_key: 'sk_test_0123456789abcdef', header_prefix: 'pay' };
const mode = (path: string) => statSync(path).mode & 0o777;

describe('ProfileStore', () => {
  it('reads an absent file as no profiles, and creates nothing by reading', () => {
    const s = store();
    expect(s.names()).toEqual([]);
    expect(s.defaultName()).toBeUndefined();
    expect(() => statSync(s.path)).toThrow();
  });

  it('writes the file with mode 0600 in a directory it creates', async () => {
    const s = store();
    await s.set('staging', profile);
    expect(mode(s.path)).toBe(0o600);
    expect(s.get('staging')).toEqual(profile);
    expect(JSON.parse(readFileSync(s.path, 'utf8')).profiles.staging.api_key).toBe(profile.api_key);
  });

  it('repairs a wider mode on the next write, and on a read', async () => {
    const s = store();
    await s.set('a', profile);
    chmodSync(s.path, 0o644);
    await s.setDefault('a');
    expect(mode(s.path)).toBe(0o600);
    chmodSync(s.path, 0o666);
    s.names();
    expect(mode(s.path)).toBe(0o600);
  });

  it('removes a profile and forgets it as the default', async () => {
    const s = store();
    await s.set('a', profile);
    await s.set('b', profile);
    await s.setDefault('a');
    expect(await s.remove('a')).toBe(true);
    expect(await s.remove('a')).toBe(false);
    expect(s.names()).toEqual(['b']);
    expect(s.defaultName()).toBeUndefined();
  });

  it('says which file is broken when it is not JSON', async () => {
    const s = store();
    await s.set('a', profile);
    writeFileSync(s.path, '{not json');
    expect(() => s.names()).toThrow(/config\.json is not valid JSON/);
  });
});
