import { spawn } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PAY_BIN, type SandboxHandle, startSandbox } from './harness.js';

// `pay … --json | jq` gets the whole of a large output even when the reader is slow: pay
// exits only once what it wrote has left (a pipe may be asynchronous, as on macOS).

const CUSTOMERS = 40;
let sb: SandboxHandle;
beforeAll(async () => {
  sb = await startSandbox({ clock: '2030-01-15' });
  // 50 keys of 500 characters each: about 26 KB a customer, 1 MB in all, far beyond a pipe's buffer.
  const metadata = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`key${i}`, String(i % 10).repeat(500)]));
  for (let i = 0; i < CUSTOMERS; i++) expect((await sb.http('POST', '/v1/customers', { email: `big${i}@example.com`, metadata })).status).toBe(200);
});
afterAll(() => sb?.stop());

it('a large --json output read through a slow pipe arrives whole', async () => {
  const child = spawn(process.execPath, [PAY_BIN, 'customers', 'list', '--limit', String(CUSTOMERS), '--json'], { env: sb.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const chunks: Buffer[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // A slow reader: each chunk is taken, then the pipe is left full for a moment.
  child.stdout.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    child.stdout.pause();
    setTimeout(() => child.stdout.resume(), 5);
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const text = Buffer.concat(chunks).toString();
  expect(code, stderr).toBe(0);
  expect(text.length).toBeGreaterThan(1_000_000);
  const page = JSON.parse(text) as { data: Array<{ metadata: Record<string, string> }> };
  expect(page.data).toHaveLength(CUSTOMERS);
  expect(page.data.every((c) => Object.keys(c.metadata).length === 50)).toBe(true);
});

it('pay --version to a reader that has already gone (`| head -c0`): exit 0, nothing said', async () => {
  const child = spawn(process.execPath, [PAY_BIN, '--version'], { env: sb.env, stdio: ['ignore', 'pipe', 'pipe'] });
  // Closed before the child's Node has even started: its one write finds no reader (EPIPE).
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
});
