import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, PAY_BIN, type SandboxHandle, startSandbox } from './harness.js';

let sb: SandboxHandle;
const dir = mkdtempSync(join(tmpdir(), 'pay-errors-'));
const dbFile = join(dir, 'sandbox.db');
beforeAll(async () => {
  sb = await startSandbox({ db: dbFile });
});
afterAll(async () => {
  await sb?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('exit codes of a real process (DESIGN.md section 8)', () => {
  it('130 when interrupted (SIGINT) while waiting on the service', async () => {
    // A service that accepts the connection and never answers.
    const sockets: Socket[] = [];
    let connected!: () => void;
    const accepted = new Promise<void>((resolve) => (connected = resolve));
    const server: Server = createServer((socket) => {
      sockets.push(socket);
      connected();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const env = baseEnv(dir, { PAY_BASE_URL: `http://127.0.0.1:${(server.address() as { port: number }).port}`, PAY_ACCOUNT: sb.account, PAY_API_KEY: sb.apiKey });
      const child = execa(process.execPath, [PAY_BIN, 'customers', 'list'], { env, extendEnv: false, reject: false });
      await accepted;
      child.kill('SIGINT');
      expect((await child).exitCode).toBe(130);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('NO_COLOR and FORCE_COLOR both set: NO_COLOR wins, and nothing else is said', () => {
  it('stderr stays empty on success and is the one JSON error on failure (no Node warning about the pair)', async () => {
    const env = baseEnv(dir, { PAY_BASE_URL: sb.baseUrl, PAY_ACCOUNT: sb.account, PAY_API_KEY: sb.apiKey, NO_COLOR: '1', FORCE_COLOR: '1' });
    const ok = await execa(process.execPath, [PAY_BIN, 'customers', 'list', '--json'], { env, extendEnv: false, reject: false });
    expect([ok.exitCode, ok.stderr]).toEqual([0, '']);
    const missing = await execa(process.execPath, [PAY_BIN, 'customers', 'get', 'cus_missing', '--json'], { env, extendEnv: false, reject: false });
    expect(missing.exitCode).toBe(4);
    expect(JSON.parse(missing.stderr).error).toMatchObject({ code: 'resource_missing', exit_code: 4 });
    const human = await execa(process.execPath, [PAY_BIN, 'customers', 'get', 'cus_missing'], { env, extendEnv: false, reject: false });
    expect(human.stderr).not.toContain('\u001b[');
    expect(human.stderr).not.toMatch(/Warning|NO_COLOR/);
  });
});

/** A digest of every row of every table of the sandbox's database file. */
function databaseDigest(): string {
  const db = new DatabaseSync(dbFile, { readOnly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>;
    // Rows in a stable order whatever the table's key (some tables have no rowid).
    const rows = tables.map(({ name }) => [name, db.prepare(`SELECT * FROM "${name}"`).all().map((row) => JSON.stringify(row)).sort()]);
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['objects', 'events', 'idempotency', 'accounts']));
    return createHash('sha256').update(JSON.stringify(rows)).digest('hex');
  } finally {
    db.close();
  }
}

describe('acceptance 4: a bad request gets 400 (413) with param and a rule, and changes nothing', () => {
  it.each([
    ['wrong type', '/v1/customers', { email: 42 }, 400, 'parameter_invalid', 'email', /must be an email address/],
    ['unknown field', '/v1/customers', { email: 'a@example.com', nickname: 'jj' }, 400, 'parameter_unknown', 'nickname', /unknown parameter: nickname/],
    ['nested wrong type', '/v1/customers', { metadata: { plan: 3 } }, 400, 'parameter_invalid', 'metadata.plan', /must be strings/],
    ['missing required', '/v1/test-helpers/clock/advance', {}, 400, 'parameter_missing', 'to', /Missing required parameter: to: give one of to or days/],
    ['missing discriminator', '/v1/payment-methods', { card: { number: '4242424242424242', exp_month: 12, exp_year: 2032, cvc: '123' } }, 400, 'parameter_missing', 'type', /Missing required parameter: type/],
    ['malformed JSON', '/v1/customers', '{"email": "a@example.com",', 400, 'invalid_json', 'body', /must be valid JSON/],
    ['oversized body', '/v1/customers', JSON.stringify({ first_name: 'x'.repeat(1_100_000) }), 413, 'body_too_large', 'body', /at most \d+ bytes/],
  ] as const)('%s', async (_name, path, body, status, code, param, rule) => {
    await sb.http('POST', '/v1/customers', { email: 'before@example.com' });
    const before = databaseDigest();
    const res = await sb.http('POST', path, body, { 'idempotency-key': `bad-${code}-${param}` });
    expect(res.status).toBe(status);
    expect(res.body.error).toMatchObject({ code, param });
    expect(res.body.error.message).toMatch(rule);
    expect(databaseDigest()).toBe(before);
  });
});
