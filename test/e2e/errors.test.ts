import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, PAY_BIN, type SandboxHandle, startSandbox } from './harness.js';
import { freePort } from './net.js';

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

describe('exit codes (DESIGN.md section 8)', () => {
  it('0 on success', async () => {
    expect((await sb.pay(['customers', 'list'])).exitCode).toBe(0);
  });

  it('2 for usage errors, before any request, with a suggestion on a typo', async () => {
    const typo = await sb.pay(['custmers', 'list']);
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toContain("unknown command 'custmers'");
    expect(typo.stderr).toContain('Did you mean customers?');
    const verbTypo = await sb.pay(['customers', 'lst']);
    expect(verbTypo.exitCode).toBe(2);
    expect(verbTypo.stderr).toContain('Did you mean list?');
    const flag = await sb.pay(['customers', 'list', '--limt', '3']);
    expect(flag.exitCode).toBe(2);
    expect(flag.stderr).toContain('--limit');
    const value = await sb.pay(['customers', 'list', '--limit', 'many']);
    expect(value.exitCode).toBe(2);
    expect(value.stderr).toContain('--limit');
    const missing = await sb.pay(['customers', 'get']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain("missing required argument 'id'");
    for (const result of [typo, flag, value, missing]) expect(result.stdout).toBe('');
  });

  it('3 for a key the service refuses', async () => {
    const result = await sb.pay(['customers', 'list'], { env: { PAY_API_KEY: 'sk_test_wrong_0123456789abcdef' } });
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain('api_key_invalid');
  });

  it('4 for a missing object', async () => {
    const result = await sb.pay(['customers', 'get', 'cus_nothere']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain("No such customer: 'cus_nothere'");
  });

  it('7 when the service cannot be reached', async () => {
    const env = { PAY_PROFILE: undefined, PAY_BASE_URL: `http://127.0.0.1:${await freePort()}`, PAY_ACCOUNT: sb.account, PAY_API_KEY: sb.apiKey };
    const result = await sb.pay(['customers', 'list'], { env });
    expect(result.exitCode).toBe(7);
    expect(result.stderr).toContain('Could not reach the service');
    expect(result.stdout).toBe('');
  });

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

describe('pay api: raw requests, the response body on stdout', () => {
  it('sends -f fields and prints the body; GET sends them as the query', async () => {
    const created = await sb.pay(['api', 'POST', '/v1/customers', '-f', 'email=raw@example.com', '-f', 'metadata.plan=gold']);
    expect(created.exitCode, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ object: 'customer', email: 'raw@example.com', metadata: { plan: 'gold' } });
    const listed = await sb.pay(['api', 'GET', '/v1/customers', '-F', 'limit=1']);
    expect(JSON.parse(listed.stdout).data).toHaveLength(1);
  });

  it('an unknown field: 400 naming it, exit 1, the error body on stdout', async () => {
    const result = await sb.pay(['api', 'POST', '/v1/customers', '-f', 'email=a@example.com', '-f', 'nickname=jj']);
    expect(result.exitCode).toBe(1);
    expect(JSON.parse(result.stdout).error).toMatchObject({ type: 'invalid_request_error', code: 'parameter_unknown', param: 'nickname' });
    expect(result.stderr).toContain('param: nickname');
  });

  it('a wrong type: 400 naming the field and the rule', async () => {
    const result = await sb.pay(['api', 'POST', '/v1/customers', '--data-json', '{"email": 42}']);
    expect(result.exitCode).toBe(1);
    const error = JSON.parse(result.stdout).error;
    expect(error).toMatchObject({ code: 'parameter_invalid', param: 'email' });
    expect(error.message).toContain('must be an email address');
  });

  it('--data-json that is not JSON is a usage error (exit 2), nothing sent', async () => {
    const result = await sb.pay(['api', 'POST', '/v1/customers', '--data-json', '{"email":']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--data-json');
  });

  it('an unknown method is a usage error', async () => {
    expect((await sb.pay(['api', 'PATCH', '/v1/customers'])).exitCode).toBe(2);
  });
});

describe('idempotent replay through pay api --idempotency-key', () => {
  it('the same key and body replays the first object, creating no second one', async () => {
    const email = `replay-${Date.now()}@example.com`;
    const args = ['api', 'POST', '/v1/customers', '-f', `email=${email}`, '--idempotency-key', `key-${email}`];
    const first = await sb.pay(args);
    const second = await sb.pay(args);
    expect(second.exitCode).toBe(0);
    expect(JSON.parse(second.stdout)).toEqual(JSON.parse(first.stdout));
    expect(second.stderr).toContain('replayed');
    expect(first.stderr).not.toContain('replayed');
    const list = await sb.http('GET', `/v1/customers?limit=100&email=${encodeURIComponent(email)}`);
    expect(list.body.data).toHaveLength(1);
  });

  it('the same key with a different body: 422, exit 5, nothing created', async () => {
    const key = `key-conflict-${Date.now()}`;
    await sb.pay(['api', 'POST', '/v1/customers', '-f', 'email=one@example.com', '--idempotency-key', key]);
    const result = await sb.pay(['api', 'POST', '/v1/customers', '-f', 'email=two@example.com', '--idempotency-key', key]);
    expect(result.exitCode).toBe(5);
    expect(JSON.parse(result.stdout).error).toMatchObject({ type: 'idempotency_error', code: 'idempotency_key_reused' });
    expect((await sb.http('GET', '/v1/customers?limit=100&email=two@example.com')).body.data).toHaveLength(0);
  });
});

/** A digest of every row of every table of the sandbox's database file. */
function databaseDigest(): string {
  const db = new DatabaseSync(dbFile, { readOnly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>;
    const rows = tables.map(({ name }) => [name, db.prepare(`SELECT * FROM "${name}" ORDER BY rowid`).all()]);
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
    ['missing required', '/v1/test-helpers/clock/advance', {}, 400, 'parameter_invalid', 'to', /exactly one of to or days/],
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
