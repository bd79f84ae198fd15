import { buildServer } from './server.js';
import type { Sandbox, SandboxOptions } from './sandbox.js';

/** An in-process sandbox on a loopback port, for unit tests of the parts that need a socket. */
export interface TestSandbox {
  baseUrl: string;
  account: string;
  apiKey: string;
  headers: Record<string, string>;
  /** The sandbox behind the server, for tests that look inside or inject a fault. */
  sandbox: Sandbox;
  /** A JSON request with the account's auth. */
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

export async function startTestSandbox(options: Partial<SandboxOptions> & { port?: number } = {}): Promise<TestSandbox> {
  const { app, sandbox } = await buildServer({ db: ':memory:', headerPrefix: 'pay', clock: '2030-01-15T00:00:00Z', ...options });
  const apiKey = 'sk_test_unit_abcdefghijklmnopqrstuvwxyz';
  const account = sandbox.addAccount({ id: 'acct_unit', apiKey }).id;
  const baseUrl = (await app.listen({ port: options.port ?? 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  const headers = { 'pay-account': account, 'pay-api-key': apiKey };
  return {
    baseUrl,
    account,
    apiKey,
    headers,
    sandbox,
    async call(method, path, body) {
      const response = await fetch(new URL(path, baseUrl), {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
    close: () => app.close(),
  };
}
