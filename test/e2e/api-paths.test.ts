import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from './harness.js';

/**
 * Issue 9: the profile's key goes to the profile's origin and nowhere else. A listener on
 * another loopback port records every byte anyone sends it (any protocol).
 */
let sb: SandboxHandle;
let thief: Server;
let port: number;
const received: string[] = [];

beforeAll(async () => {
  sb = await startSandbox();
  thief = createServer((socket) => {
    received.push('');
    const at = received.length - 1;
    socket.on('data', (chunk: Buffer) => {
      received[at] += chunk.toString('latin1');
      // Answer as a service would, so a leaking client finishes (and the test fails fast).
      socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}');
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => thief.listen(0, '127.0.0.1', resolve));
  port = (thief.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => thief?.close(resolve));
  await sb?.stop();
});

const refused = (host: string): Array<[string, string, string]> => [
  ['GET', `//${host}/steal`, 'starts with //'],
  ['GET', `///${host}/steal`, 'starts with //'],
  ['GET', `/\\${host}/x`, 'backslash'],
  ['GET', `/\\\\${host}/x`, 'backslash'],
  ['GET', `\\\\${host}/x`, 'backslash'],
  ['GET', `http://${host}/x`, 'absolute URL'],
  ['GET', `HTTP://${host}/x`, 'absolute URL'],
  ['GET', `ws://${host}/x`, 'absolute URL'],
  ['GET', `/\t/${host}/x`, 'control character'],
  ['GET', `/\n/${host}/x`, 'control character'],
  ['POST', `//${host}/v1/customers`, 'starts with //'],
  ['POST', `http://${host}/v1/customers`, 'absolute URL'],
  ['DELETE', `/\\${host}/v1/webhook-endpoints/we_1`, 'backslash'],
];

describe('pay api: a path is always under the profile\'s base URL (DESIGN section 8)', () => {
  it('every form naming another host is a usage error (exit 2) naming the path and the rule, and sends nothing anywhere', async () => {
    for (const [method, path, rule] of refused(`127.0.0.1:${port}`)) {
      const args = ['api', method, path, '--verbose', ...(method === 'POST' ? ['--data-json', '{"email":"x@example.com"}'] : [])];
      const result = await sb.pay(args);
      expect(result.exitCode, `${method} ${JSON.stringify(path)}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toContain(JSON.stringify(path).slice(0, 20));
      expect(result.stderr).toContain(rule);
      expect(result.stderr).toContain("under the profile's base URL");
      // Refused before any request: no trace line, not even to the sandbox.
      expect(result.stderr).not.toContain('> ');
      expect(result.stdout).toBe('');
    }
    expect(received).toEqual([]);
  });

  it('encoded forms stay on the base origin: the sandbox answers (404), the other port hears nothing', async () => {
    for (const path of [`/%2F%2F127.0.0.1:${port}/steal`, `/%2f%2f127.0.0.1:${port}/x`, `/%5C127.0.0.1:${port}/x`, `/%5c%5c127.0.0.1:${port}/x`, `/%2e%2e/%2e%2e/127.0.0.1:${port}/x`, `/@127.0.0.1:${port}/x`]) {
      const result = await sb.pay(['api', 'GET', path, '--verbose']);
      expect(result.exitCode, `${path}: ${result.stderr}`).toBe(4);
      expect(result.stderr).toContain(`> GET ${sb.baseUrl}/`);
    }
    expect(received).toEqual([]);
  });

  it('a shell variable left empty or holding a host ("/$X") never reaches the host', async () => {
    const result = await sb.pay(['api', 'GET', `/${`/127.0.0.1:${port}/v1/customers`}`]);
    expect(result.exitCode).toBe(2);
    expect(received).toEqual([]);
  });

  it('ids with slashes and dots in other commands stay one segment on the base origin', async () => {
    for (const id of [`//127.0.0.1:${port}/x`, `/\\127.0.0.1:${port}/x`, '..', `../../127.0.0.1:${port}`]) {
      const result = await sb.pay(['customers', 'get', id]);
      expect([2, 4], `${id}: ${result.stderr}`).toContain(result.exitCode);
    }
    expect(received).toEqual([]);
  });
});
