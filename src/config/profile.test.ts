import { describe, expect, it } from 'vitest';
import { BASE_URL_RULE, BASE_URL_VERSION_RULE, checkProfile } from './profile.js';

const valid = { base_url: 'https://api.example.com', account: 'acct_1', api_key: 'sk_test_0123456789' };

describe('checkProfile: the rules of a profile', () => {
  it('keeps the known fields and defaults the header prefix', () => {
    expect(checkProfile({ ...valid, sandbox: true, other: 'x' })).toEqual({ profile: { ...valid, header_prefix: 'pay', sandbox: true } });
    expect(checkProfile({ ...valid, header_prefix: 'acme' })).toEqual({ profile: { ...valid, header_prefix: 'acme' } });
  });

  it('names the first field that breaks a rule, and the rule', () => {
    expect(checkProfile({ ...valid, base_url: 'ftp://x' })).toEqual({ problem: { field: 'base_url', message: BASE_URL_RULE } });
    expect(checkProfile({ ...valid, base_url: 'localhost:12111' })).toMatchObject({ problem: { field: 'base_url' } });
    expect(checkProfile({ ...valid, account: 'acct 1' })).toEqual({ problem: { field: 'account', message: 'must be an account id: letters, digits, _ and -, e.g. acct_123' } });
    expect(checkProfile({ ...valid, api_key: 42 })).toEqual({ problem: { field: 'api_key', message: 'must be a string' } });
    // A key pasted with its line break could never be sent in a header: said up front, never echoed.
    for (const api_key of ['sk_test_0123\n', 'sk_test 0123', 'sk_test_\u00e9']) {
      expect(checkProfile({ ...valid, api_key }), JSON.stringify(api_key)).toEqual({ problem: { field: 'api_key', message: 'must be printable characters, without spaces or line breaks' } });
    }
    expect(checkProfile({ ...valid, header_prefix: 'Pay' })).toEqual({ problem: { field: 'header_prefix', message: 'must be lowercase letters, digits and -' } });
    expect(checkProfile({ ...valid, sandbox: 'yes' })).toEqual({ problem: { field: 'sandbox', message: 'must be true or false' } });
  });

  it('refuses an account that is a key or secret (the two swapped): it would be sent in the account header and shown whole in profiles list', () => {
    for (const account of ['sk_test_m62QCng3mA1WcST3SJg55NRweZFICsDc', 'sk_live_0123456789abcdef', 'whsec_0123456789abcdef']) {
      expect(checkProfile({ ...valid, account }), account).toEqual({ problem: { field: 'account', message: 'must be an account id, e.g. acct_123, not an API key or signing secret' } });
    }
    expect(checkProfile({ ...valid, account: 'sk_1' })).toMatchObject({ profile: { account: 'sk_1' } });
  });

  it('refuses a base URL carrying credentials: they would be shown wherever the URL is (profiles list, errors, journals)', () => {
    for (const base_url of ['https://user:hunter2@api.example.com', 'https://token@api.example.com', 'http://:hunter2@127.0.0.1:12111']) {
      expect(checkProfile({ ...valid, base_url }), base_url).toEqual({ problem: { field: 'base_url', message: BASE_URL_RULE } });
    }
  });

  it('refuses a base URL ending in /v1: every path pay sends starts with it, so each request would go to /v1/v1/… and be a 404', () => {
    for (const base_url of ['https://api.example.com/v1', 'https://api.example.com/payments/v1/', 'http://127.0.0.1:12111/v1']) {
      expect(checkProfile({ ...valid, base_url }), base_url).toEqual({ problem: { field: 'base_url', message: BASE_URL_VERSION_RULE } });
    }
    expect(BASE_URL_VERSION_RULE).toBe('must not end in /v1: the paths pay sends start with it (https://api.example.com/v1 is https://api.example.com)');
    expect(checkProfile({ ...valid, base_url: 'https://api.example.com/payments' })).toMatchObject({ profile: { base_url: 'https://api.example.com/payments' } });
  });

  it('says when a required field is missing', () => {
    expect(checkProfile({ account: 'acct_1', api_key: 'k' })).toEqual({ problem: { field: 'base_url', message: 'is required', missing: true } });
  });
});
