import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rowId } from '../../src/domain/ids.js';
import { SandboxKeys } from '../../src/sandbox/store/keys.js';
import { MIGRATIONS } from '../../src/sandbox/store/migrations.js';
import { Receiver } from '../support/receiver.js';
import { openWebSocket } from '../support/ws.js';
import { baseEnv, readAnswer, runPay } from './harness.js';

const dirs: string[] = [];
function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'pay-dbfile-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  // A sandbox started on a file it should have refused would outlive the run.
  for (const dir of dirs) await runPay(['sandbox', 'stop'], { env: baseEnv(join(dir, 'config')) });
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('a database file this pay cannot use is refused, and left as it was', () => {
  it('one a newer pay wrote (a schema version beyond this one\'s migrations): exit 2 naming the file and both versions, in the foreground and detached', async () => {
    const dir = tempDir();
    const db = join(dir, 'newer.db');
    const newer = new DatabaseSync(db);
    newer.exec('PRAGMA journal_mode = WAL'); // as pay writes it
    for (const sql of MIGRATIONS) newer.exec(sql);
    // A later migration this pay does not know.
    newer.exec(`ALTER TABLE accounts ADD COLUMN from_the_future TEXT; PRAGMA user_version = ${MIGRATIONS.length + 1}`);
    newer.close();
    const before = readFileSync(db);
    const said = `✗ The database ${db} was written by a newer version of pay (schema ${MIGRATIONS.length + 1}; this version knows up to ${MIGRATIONS.length}): upgrade pay to use it, or start with another --db or --memory.`;
    for (const detach of [[], ['--detach']]) {
      const result = await runPay(['sandbox', 'start', '--port', '0', '--db', db, ...detach], { env: baseEnv(join(dir, 'config')), timeout: 20_000 });
      expect({ exit: result.exitCode, stderr: result.stderr }, detach.join(' ')).toEqual({ exit: 2, stderr: said });
    }
    expect(readFileSync(db).equals(before)).toBe(true);
    expect(existsSync(`${db}.lock`)).toBe(false);
  });

  it('a file that is not a SQLite database: exit 2 naming it, in the foreground and detached', async () => {
    const dir = tempDir();
    const db = join(dir, 'notes.txt');
    writeFileSync(db, 'my notes, not a database\n');
    const said = `✗ The file ${db} is not a SQLite database (or it is damaged): start with another --db or --memory.`;
    for (const detach of [[], ['--detach']]) {
      const result = await runPay(['sandbox', 'start', '--port', '0', '--db', db, ...detach], { env: baseEnv(join(dir, 'config')), timeout: 20_000 });
      expect({ exit: result.exitCode, stderr: result.stderr }, detach.join(' ')).toEqual({ exit: 2, stderr: said });
    }
    expect(readFileSync(db, 'utf8')).toBe('my notes, not a database\n');
    expect(existsSync(`${db}.lock`)).toBe(false);
  });
});

/**
 * A database a user kept from an older pay, at each schema version before this one:
 * rows as that version's code wrote them (the migrations show each version's shape).
 */
const KEY = 'sk_test_upgrade_abcdefghijklmnopqrstuvwxyz0123';
const ACCOUNT = 'acct_upgrade';
const CLOCK = '2031-05-06T07:08:09Z';
const CREATED = '2031-05-01T00:00:00Z';
const LISTENER = 'lsn_upgradeupgradeupgrade';

function oldDatabase(file: string, version: number, secret: string, receiver: string) {
  const { keys } = SandboxKeys.open(file);
  const db = new DatabaseSync(file);
  db.exec('PRAGMA journal_mode = WAL');
  for (const sql of MIGRATIONS.slice(0, version)) db.exec(sql);
  db.exec(`PRAGMA user_version = ${version}`);
  const lean = version >= 6; // integer account keys, ids naming their row
  const acct = lean ? 1 : ACCOUNT;
  db.prepare(`INSERT INTO accounts (id, api_key_hash, ${version < 4 ? 'secret, ' : ''}clock_now, created${lean ? ', key' : ''}) VALUES (?, ?, ${version < 4 ? "'oldsecret', " : ''}?, ?${lean ? ', 1' : ''})`)
    .run(ACCOUNT, createHash('sha256').update(KEY).digest('hex'), CLOCK, CREATED);
  const customerId = lean ? rowId('customer', 1) : 'cus_OLDoldOLDoldOLDoldOLDold';
  const endpointId = lean ? rowId('webhook_endpoint', 2) : 'we_OLDoldOLDoldOLDoldOLDold';
  const eventIds = lean ? [rowId('event', 1), rowId('event', 2)] : ['evt_OLDoldOLDoldOLDoldOLDol1', 'evt_OLDoldOLDoldOLDoldOLDol2'];
  const first = { id: customerId, object: 'customer', created: CREATED, livemode: false, email: 'old@example.com', first_name: null, middle_name: null, last_name: null, phone: null, metadata: {} };
  const second = { ...first, email: 'new@example.com' };
  const endpoint = { id: endpointId, object: 'webhook_endpoint', created: CREATED, livemode: false, url: receiver, subscription_group: null, enabled_events: ['*'], description: null, status: 'enabled', disabled_reason: null };
  const insertObject = (seq: number, kind: string, object: object, objectVersion: number) => {
    const o = object as Record<string, unknown>;
    if (lean) {
      db.prepare('INSERT INTO objects (seq, account, kind, id, version, status, customer_id, data) VALUES (?, 1, ?, ?, ?, ?, ?, ?)').run(seq, kind, o.id as string, objectVersion, (o.status as string) ?? null, null, JSON.stringify(object));
    } else {
      db.prepare(`INSERT INTO objects (seq, id, account, kind, data${version >= 5 ? ', version' : ''}) VALUES (?, ?, ?, ?, ?${version >= 5 ? ', ?' : ''})`).run(seq, o.id as string, ACCOUNT, kind, JSON.stringify(object), ...(version >= 5 ? [objectVersion] : []));
    }
  };
  // The customer as it is now (changed once), and the endpoint.
  insertObject(1, 'customer', version >= 5 ? second : first, version >= 5 ? 2 : 1);
  insertObject(2, 'webhook_endpoint', endpoint, 1);
  if (version >= 5) db.prepare('INSERT INTO object_versions (object_seq, version, account, data) VALUES (1, 1, ?, ?)').run(acct, JSON.stringify(first));
  // Events: a full snapshot before schema 5; the version's name after.
  const events = [['customer.created', 1, first], ['customer.updated', 2, version >= 5 ? second : first]] as const;
  events.forEach(([type, objectVersion, object], i) => {
    const full = JSON.stringify({ id: eventIds[i], object: 'event', type, created: CREATED, livemode: false, data: { object } });
    if (version < 5) db.prepare('INSERT INTO events (seq, id, account, type, created, data) VALUES (?, ?, ?, ?, ?, ?)').run(i + 1, eventIds[i]!, ACCOUNT, type, CREATED, full);
    else if (!lean) db.prepare("INSERT INTO events (seq, id, account, type, created, data, object_seq, version) VALUES (?, ?, ?, ?, ?, '{}', 1, ?)").run(i + 1, eventIds[i]!, ACCOUNT, type, CREATED, objectVersion);
    else db.prepare('INSERT INTO events (seq, account, type, created, id, object_seq, version, data) VALUES (?, 1, ?, ?, ?, 1, ?, NULL)').run(i + 1, type, CREATED, eventIds[i]!, objectVersion);
  });
  // The stored response of the request that created the customer (dropped by migration 4: unkeyed body hashes).
  const body = { email: 'old@example.com' };
  const mac = version >= 4 ? keys.bodyMac(body) : createHash('sha256').update(JSON.stringify(body)).digest('hex');
  const [objectSeq, objectVersion, response] = version >= 5 ? [1, 1, lean ? null : ''] : [null, null, JSON.stringify(first)];
  const columns = version >= 5 ? ', object_seq, version' : '';
  db.prepare(`INSERT INTO idempotency (account, key, method, path, body_hash, status, created, response${columns}) VALUES (?, 'old-key', 'POST', '/v1/customers', ?, 200, ?, ?${version >= 5 ? ', ?, ?' : ''})`)
    .run(acct, mac, CLOCK, response, ...(version >= 5 ? [objectSeq, objectVersion] : []));
  if (version >= 2) {
    // The endpoint's secret: in clear before the key file (schema 4).
    db.prepare('INSERT INTO webhook_secrets (endpoint_id, account, secret) VALUES (?, ?, ?)').run(endpointId, ACCOUNT, version >= 4 ? keys.seal(secret) : secret);
    db.prepare('INSERT INTO listen_cursors (account, listener, last_seq, updated) VALUES (?, ?, 1, ?)').run(ACCOUNT, LISTENER, CREATED);
  }
  db.close();
  return { customerId, endpointId, eventIds, first, second };
}

describe('a database of every older schema opens with this pay, as it was', () => {
  for (let version = 1; version < MIGRATIONS.length; version++) {
    it(`schema ${version}`, async () => {
      const dir = tempDir();
      const file = join(dir, 'old.db');
      const secret = `whsec_${Buffer.from(`upgrade secret of schema ${version}!`).toString('base64')}`;
      const receiver = await new Receiver().start();
      receiver.secret = secret;
      const old = oldDatabase(file, version, secret, `http://127.0.0.1:${receiver.port}/hooks`);
      const env = baseEnv(join(dir, 'config'), { PAY_SANDBOX_ACCOUNT: ACCOUNT, PAY_SANDBOX_API_KEY: KEY });
      const started = await runPay(['sandbox', 'start', '--detach', '--port', '0', '--db', file, '--json'], { env });
      expect(started.exitCode, started.stderr).toBe(0);
      const base = JSON.parse(started.stdout).base_url as string;
      const headers = { 'pay-account': ACCOUNT, 'pay-api-key': KEY };
      const get = async (path: string) => readAnswer(await fetch(new URL(path, base), { headers }));
      try {
        expect((await get('/v1/test-helpers/clock')).body.now).toBe(CLOCK);
        const upgradedCustomer = version >= 5 ? old.second : old.first;
        expect((await get(`/v1/customers/${old.customerId}`)).body).toEqual(upgradedCustomer);
        // Each event holds its object as of that event.
        expect((await get(`/v1/events/${old.eventIds[0]}`)).body.data.object).toEqual(old.first);
        expect((await get(`/v1/events/${old.eventIds[1]}`)).body.data.object).toEqual(version >= 5 ? old.second : old.first);
        expect((await get('/v1/events')).body.data.map((e: { id: string }) => e.id)).toEqual([...old.eventIds].reverse());
        expect((await get(`/v1/webhook-endpoints/${old.endpointId}`)).body.status).toBe('enabled');
        // The replay of the stored response, byte for byte (from schema 4 on: older records were unkeyed hashes, dropped).
        const replay = await fetch(new URL('/v1/customers', base), { method: 'POST', headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': 'old-key' }, body: JSON.stringify({ email: 'old@example.com' }) });
        const replayText = await replay.text();
        if (version >= 4) {
          expect({ status: replay.status, replayed: replay.headers.get('idempotent-replayed'), body: replayText }).toEqual({ status: 200, replayed: 'true', body: JSON.stringify(old.first) });
        } else {
          expect({ status: replay.status, replayed: replay.headers.get('idempotent-replayed') }).toEqual({ status: 200, replayed: null });
        }
        if (version >= 2) {
          // The listener resumes after the event it acknowledged.
          const { ws, opened } = openWebSocket(`${base.replace('http', 'ws')}/v1/listen?listener=${LISTENER}`, headers);
          const ready = new Promise<any>((resolve) => ws.once('message', (data) => resolve(JSON.parse(String(data)))));
          await opened;
          const frame = await ready;
          ws.close();
          expect({ after: frame.after, source: frame.cursor_source }).toEqual({ after: old.eventIds[0], source: 'listener' });
          // The endpoint's secret still signs: a new event reaches it, verified.
          const created = await fetch(new URL('/v1/customers', base), { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ email: 'after@example.com' }) });
          const customer = (await readAnswer(created)).body;
          await receiver.waitFor(() => receiver.received.some((r) => r.event?.data?.object?.id === customer.id));
          expect(receiver.received.find((r) => r.event?.data?.object?.id === customer.id)!.verified).toBe(true);
        }
      } finally {
        await runPay(['sandbox', 'stop'], { env });
        await receiver.stop();
      }
      const reopened = new DatabaseSync(file);
      expect(reopened.prepare('PRAGMA user_version').get()).toEqual({ user_version: MIGRATIONS.length });
      reopened.close();
    });
  }
});
