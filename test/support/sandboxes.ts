import { afterEach } from 'vitest';
import { startInProcess } from '../../src/sandbox/in-process.js';
import type { Sandbox } from '../../src/sandbox/sandbox.js';
import type { StartSandboxOptions, TestSandbox as PublicSandbox } from '../../src/sandbox/testing.js';

/** The public testing sandbox (`pay/testing`) with a raw JSON call, for tests of the service itself. */
export interface TestSandbox extends PublicSandbox {
  /** A JSON request with the account's auth, whatever the answer. */
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** The service behind the server, for tests that look inside or inject a fault. */
  sandbox: Sandbox;
}

/** A fixed account, key and clock, so a test can reopen its database file as the same account. */
export async function startTestSandbox(options: StartSandboxOptions = {}): Promise<TestSandbox> {
  const { handle: sb, sandbox } = await startInProcess({ clock: '2030-01-15T00:00:00Z', account: 'acct_unit', apiKey: 'sk_test_unit_abcdefghijklmnopqrstuvwxyz', ...options });
  return {
    ...sb,
    sandbox,
    async call(method, path, body) {
      const response = await fetch(new URL(path, sb.baseUrl), {
        method,
        headers: { ...sb.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
  };
}

/**
 * In-process sandboxes for the tests of a describe block, closed after each test with
 * whatever else was handed to `later` (in reverse order).
 */
export function testSandboxes() {
  const steps: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const step of steps.splice(0).reverse()) await step();
  });
  const later = (step: () => Promise<void> | void) => void steps.push(step);
  async function sandbox(options: StartSandboxOptions = {}): Promise<TestSandbox> {
    const sb = await startTestSandbox(options);
    later(() => sb.close());
    return sb;
  }
  return { sandbox, later };
}
