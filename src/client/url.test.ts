import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PathError } from './errors.js';
import { checkPath, serviceUrl } from './url.js';

const BASE = 'http://127.0.0.1:12111';
const BASE_WITH_PATH = 'https://api.example.com/pay/';

describe('serviceUrl', () => {
  it.each([
    ['/v1/customers', BASE, 'http://127.0.0.1:12111/v1/customers'],
    ['v1/customers', BASE, 'http://127.0.0.1:12111/v1/customers'],
    ['/v1/customers?limit=3', BASE, 'http://127.0.0.1:12111/v1/customers?limit=3'],
    ['/v1/customers', BASE_WITH_PATH, 'https://api.example.com/pay/v1/customers'],
    ['/v1/customers', 'https://api.example.com/pay', 'https://api.example.com/pay/v1/customers'],
    // Encoded slashes and backslashes are data in one segment, on the base origin.
    ['/%2F%2F127.0.0.1:9/x', BASE, 'http://127.0.0.1:12111/%2F%2F127.0.0.1:9/x'],
    ['/%5C127.0.0.1:9/x', BASE, 'http://127.0.0.1:12111/%5C127.0.0.1:9/x'],
    ['/v1/customers/../events', BASE_WITH_PATH, 'https://api.example.com/pay/v1/events'],
    ['/@127.0.0.1:9/x', BASE, 'http://127.0.0.1:12111/@127.0.0.1:9/x'],
  ])('%s under %s is %s', (path, base, expected) => {
    expect(serviceUrl(base, path).href).toBe(expected);
  });

  it('gives the ws(s): URL of a WebSocket endpoint, under the base path too', () => {
    expect(serviceUrl(BASE, '/v1/listen', { websocket: true }).href).toBe('ws://127.0.0.1:12111/v1/listen');
    expect(serviceUrl(BASE_WITH_PATH, '/v1/listen', { websocket: true }).href).toBe('wss://api.example.com/pay/v1/listen');
  });

  it.each([
    ['//127.0.0.1:9/steal', 'starts with //'],
    ['///127.0.0.1:9/steal', 'starts with //'],
    ['/\\127.0.0.1:9/x', 'backslash'],
    ['/\\\\127.0.0.1:9/x', 'backslash'],
    ['\\\\127.0.0.1:9/x', 'backslash'],
    ['http://127.0.0.1:9/x', 'absolute URL'],
    ['HTTPS://127.0.0.1:9/x', 'absolute URL'],
    ['ws://127.0.0.1:9/x', 'absolute URL'],
    ['localhost:9/x', 'absolute URL'],
    ['/\t/127.0.0.1:9/x', 'control character'],
    ['/\n/127.0.0.1:9/x', 'control character'],
    ['/v1/customers\r\nx-injected: 1', 'control character'],
    ['/v1/ customers', 'space'],
    ['\u0000//127.0.0.1:9/x', 'control character'],
  ])('refuses %j (%s), naming the path and the rule', (path, rule) => {
    for (const base of [BASE, BASE_WITH_PATH]) {
      const error = (() => {
        try {
          serviceUrl(base, path);
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(PathError);
      expect((error as Error).message).toContain(JSON.stringify(path).slice(0, 20));
      expect((error as Error).message).toContain(rule);
      expect((error as Error).message).toContain("under the profile's base URL");
    }
    expect(() => checkPath(path)).toThrow(PathError);
  });

  it.each([
    ['https://user:s3cr3tpass@api.example.com/v1/customers', 'https://…@api.example.com/v1/customers'],
    ['https://sk_test_0123456789abcdefghij@api.example.com/v1/x', 'https://…@api.example.com/v1/x'],
    ['/v1/customers?email=a b&api_key=sk_test_0123456789abcdefghij', '/v1/customers?email=a b&api_key=sk_test_…ghij'],
    ['/v1/x\t?card_number=4242424242424242&cvc=123', '/v1/x\t?card_number=…4242&cvc=…'],
  ])('refuses %j without echoing the password, key or card in it', (path, shownAs) => {
    const message = (() => {
      try {
        checkPath(path);
      } catch (e) {
        return (e as Error).message;
      }
      return '';
    })();
    expect(message).toContain(JSON.stringify(shownAs).slice(1, -1));
    for (const secret of ['s3cr3tpass', 'sk_test_0123456789abcdefghij', '4242424242424242', 'cvc=123']) expect(message).not.toContain(secret);
  });

  it.each(['/..', '/../x', '/v1/../../x', '/%2e%2e/x', '/.%2E/x', '/v1/%2e%2e/%2e%2e/steal'])('refuses %j: it climbs out of the base path', (path) => {
    expect(() => serviceUrl(BASE_WITH_PATH, path)).toThrow(/leaves the base URL's path \/pay\//);
  });

  it('whatever the path, the URL is on the base origin and under its path, or a PathError', () => {
    const pieces = fc.constantFrom('/', '//', '\\', '.', '..', '%2e', '%2F', '%5C', ':', '@', '?', '#', '\t', 'http:', '127.0.0.1:9', 'v1', 'x', ' ');
    const path = fc.oneof(fc.string({ unit: 'grapheme' }), fc.array(pieces, { maxLength: 12 }).map((p) => p.join('')));
    fc.assert(
      fc.property(path, fc.constantFrom(BASE, BASE_WITH_PATH), (p, base) => {
        let url: URL;
        try {
          url = serviceUrl(base, p);
        } catch (error) {
          expect(error).toBeInstanceOf(PathError);
          return;
        }
        const b = new URL(base);
        expect(url.origin).toBe(b.origin);
        expect(`${url.pathname}/`.startsWith(b.pathname.replace(/\/?$/, '/'))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
