import { describe, expect, it } from 'vitest';
import { maskSecret } from '../domain/secrets.js';
import { redactBody, redactUrl } from './mask.js';

describe('maskSecret', () => {
  it('shows at most the first 8 and last 4 characters', () => {
    const key = 'sk_test_abcdefghijklmnopqrstuvwxyz0123';
    expect(maskSecret(key)).toBe('sk_test_…0123');
  });

  it.each(['', 'short', 'exactly8', 'sk_test_123456789ab', 'sk_test_1234567890abcdef', 'x'.repeat(200)])('never shows more than 12 characters of %j, nor the whole of it', (secret) => {
    const shown = maskSecret(secret).replace('…', '');
    expect(shown.length).toBeLessThanOrEqual(12);
    if (secret.length > 0) expect(maskSecret(secret)).not.toBe(secret);
    expect(shown.length).toBeLessThan(Math.max(secret.length, 1));
  });
});

describe('redactBody', () => {
  it('masks secret fields at any depth and leaves the rest', () => {
    const body = { account: 'acct_1', api_key: 'sk_test_abcdefghijklmnopqrstuvwxyz', card: { number: '4242424242424242', cvc: '123', exp_month: 12 }, list: [{ secret: 'whsec_abcdefghijklmnopqrstuvwxyz' }] };
    const redacted = redactBody(JSON.stringify(body));
    for (const secret of ['sk_test_abcdefghijklmnopqrstuvwxyz', '4242424242424242', '"123"', 'whsec_abcdefghijklmnopqrstuvwxyz']) expect(redacted).not.toContain(secret);
    expect(JSON.parse(redacted)).toMatchObject({ account: 'acct_1', card: { exp_month: 12 } });
  });

  it('leaves text that is not JSON as it is', () => {
    expect(redactBody('not json')).toBe('not json');
  });

  it('keeps the last 4 digits of card numbers and nothing of a cvc', () => {
    const body = JSON.stringify({ type: 'card', card: { number: '4242 4242 4242 4242', exp_month: 12, cvc: '123' }, card_number: '3566002020360505' });
    expect(redactBody(body)).toBe('{"type":"card","card":{"number":"…4242","exp_month":12,"cvc":"…"},"card_number":"…0505"}');
  });

  it('leaves other JSON alone', () => {
    const body = '{"amount":1099,"currency":"usd"}';
    expect(redactBody(body)).toBe(body);
  });
});

describe('masking goes by the field\'s name, whatever the value\'s type', () => {
  it('masks a card number and a CVC sent as JSON numbers', () => {
    const body = '{"type":"card","card":{"number":5555555555554444,"exp_month":12,"exp_year":2034,"cvc":654}}';
    expect(redactBody(body)).toBe('{"type":"card","card":{"number":"…4444","exp_month":12,"exp_year":2034,"cvc":"…"}}');
  });

  it('masks keys, secrets and tokens of any type, and whatever sits under such a name', () => {
    const body = { api_key: 1234567890123456, secret: { nested: 'whsec_abcdefghijklmnopqrstuvwxyz' }, access_token: 'tok_abcdefghijklmnopqrstuvwxyz', cvv: ['1', '2'], card: { cvc: null } };
    const redacted = JSON.parse(redactBody(JSON.stringify(body)));
    expect(redacted).toEqual({ api_key: '123…56', secret: '…', access_token: 'tok_abcd…wxyz', cvv: '…', card: { cvc: null } });
  });

  it('masks query parameters by the same names, dotted or bracketed', () => {
    const url = new URL('http://127.0.0.1:1/v1/customers?limit=3&card.number=4242424242424242&card[cvc]=123&api_key=sk_test_abcdefghijklmnopqrstuvwxyz&email=a%40example.com');
    const shown = redactUrl(url);
    expect(shown).toBe('http://127.0.0.1:1/v1/customers?limit=3&card.number=…4242&card%5Bcvc%5D=…&api_key=sk_test_…wxyz&email=a%40example.com');
    for (const secret of ['4242424242424242', '123', 'sk_test_abcdefghijklmnopqrstuvwxyz']) expect(shown).not.toContain(secret);
  });

  it('leaves a URL without such parameters as it is', () => {
    const url = new URL('http://127.0.0.1:1/v1/customers?limit=3&email=a%40example.com');
    expect(redactUrl(url)).toBe(url.href);
  });
});
