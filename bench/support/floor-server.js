// The floor of row 1, shown beside it (not its baseline): create+confirm on the sandbox's
// own stack with nothing but the contract the issue keeps. fastify and node:sqlite as the
// sandbox uses them (WAL, synchronous NORMAL, checkpoints on a worker); the requests of a
// tick share one transaction, committed and fdatasync'd before any of them is answered;
// each writes the rows a create+confirm needs (the intent and its charge, the intent as it
// was created kept as its first version, three events naming those versions, the
// idempotency record naming the intent), with the sandbox's indexes on them; the body is
// checked with the sandbox's own zod schema and keyed by an HMAC of its sorted JSON.
// Nothing else: one account, one payment method, no declines, no error bodies, no object
// cache, and a key seen again is refused, not replayed. Started as a child process by
// bench/write.js with FLOOR_DB (a database file), FLOOR_HEADERS (the auth headers it
// accepts), FLOOR_INTENT and FLOOR_CHARGE (a succeeded intent and its charge, as the
// sandbox answered them: each request's are these with fresh ids and its own amount);
// prints {"port"} once it listens.
import { createHmac, createSecretKey, randomBytes } from 'node:crypto';
import { closeSync, fdatasync, openSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { DatabaseSync } from 'node:sqlite';
import Fastify from 'fastify';
import { bodySchemaOf } from '../../dist/domain/request-bodies.js';

const file = process.env.FLOOR_DB;
const headers = Object.entries(JSON.parse(process.env.FLOOR_HEADERS));
const intentTemplate = JSON.parse(process.env.FLOOR_INTENT);
const chargeTemplate = JSON.parse(process.env.FLOOR_CHARGE);
const schema = bodySchemaOf('payment_intents.create');

closeSync(openSync(file, 'a', 0o600));
const db = new DatabaseSync(file);
db.exec(`
  PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 0;
  CREATE TABLE objects (seq INTEGER PRIMARY KEY, account INTEGER NOT NULL, kind TEXT NOT NULL, id TEXT NOT NULL, version INTEGER NOT NULL, customer_id TEXT, payment_intent_id TEXT, data TEXT NOT NULL);
  CREATE INDEX objects_by_kind ON objects(account, kind, seq);
  CREATE INDEX objects_by_customer ON objects(account, kind, customer_id, seq) WHERE customer_id IS NOT NULL;
  CREATE INDEX objects_by_payment_intent ON objects(account, kind, payment_intent_id, seq) WHERE payment_intent_id IS NOT NULL;
  CREATE TABLE object_versions (object_seq INTEGER NOT NULL, version INTEGER NOT NULL, account INTEGER NOT NULL, data TEXT NOT NULL);
  CREATE UNIQUE INDEX object_versions_by_object ON object_versions(object_seq, version);
  CREATE TABLE events (seq INTEGER PRIMARY KEY, account INTEGER NOT NULL, type TEXT NOT NULL, created TEXT NOT NULL, id TEXT NOT NULL, object_seq INTEGER NOT NULL, version INTEGER NOT NULL);
  CREATE INDEX events_by_account ON events(account, seq);
  CREATE TABLE idempotency (seq INTEGER PRIMARY KEY, account INTEGER NOT NULL, key TEXT NOT NULL, body_hash TEXT NOT NULL, status INTEGER NOT NULL, created TEXT NOT NULL, object_seq INTEGER NOT NULL);
`);
// As the sandbox's Checkpointer: the WAL is checkpointed by another connection, off the request thread.
new Worker(
  `const db = new (require('node:sqlite').DatabaseSync)(require('node:worker_threads').workerData);
   db.exec('PRAGMA busy_timeout = 5000');
   setInterval(() => db.exec('PRAGMA wal_checkpoint(PASSIVE)'), 500);`,
  { eval: true, workerData: file },
).unref();

const TABLES = {
  objects: ['seq', 'account', 'kind', 'id', 'version', 'customer_id', 'payment_intent_id', 'data'],
  object_versions: ['object_seq', 'version', 'account', 'data'],
  events: ['seq', 'account', 'type', 'created', 'id', 'object_seq', 'version'],
  idempotency: ['seq', 'account', 'key', 'body_hash', 'status', 'created', 'object_seq'],
};
const ROWS_A_STATEMENT = 16;
const statements = new Map();
const prepared = (sql) => statements.get(sql) ?? statements.set(sql, db.prepare(sql)).get(sql);
// Each table's INSERT of n rows, prepared the first time it is wanted (as the sandbox's held rows).
const inserts = new Map();
const insertOf = (table, n) => {
  const key = `${table} ${n}`;
  if (!inserts.has(key)) {
    const columns = TABLES[table];
    const values = Array.from({ length: n }, () => `(${columns.map(() => '?').join(', ')})`).join(', ');
    inserts.set(key, prepared(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${values}`));
  }
  return inserts.get(key);
};
const insert = (table, rows) => {
  for (let start = 0; start < rows.length; start += ROWS_A_STATEMENT) {
    const chunk = rows.slice(start, start + ROWS_A_STATEMENT);
    insertOf(table, chunk.length).run(...chunk.flat());
  }
};

// Group commit: the requests of a tick (and of every tick while a sync runs) share a transaction.
let group;
let syncing = false;
let unsynced = [];
let wal;
function write(rows) {
  if (!group) {
    group = { objects: [], object_versions: [], events: [], idempotency: [], waiting: [] };
    if (!syncing) setImmediate(commit);
  }
  for (const table of Object.keys(TABLES)) group[table].push(...rows[table]);
  return new Promise((resolve) => group.waiting.push(resolve));
}
function commit() {
  const done = group;
  group = undefined;
  prepared('BEGIN IMMEDIATE').run();
  for (const table of Object.keys(TABLES)) insert(table, done[table]);
  prepared('COMMIT').run();
  unsynced.push(...done.waiting);
  if (!syncing) sync();
}
function sync() {
  const answered = unsynced;
  unsynced = [];
  syncing = true;
  wal ??= openSync(`${file}-wal`, 'r');
  fdatasync(wal, () => {
    syncing = false;
    if (group) commit();
    for (const answer of answered) answer();
    if (!syncing && unsynced.length > 0) sync();
  });
}

const bodyKey = createSecretKey(randomBytes(32));
const sortedKeys = (_key, value) =>
  value === null || typeof value !== 'object' || Array.isArray(value) ? value : Object.fromEntries(Object.keys(value).sort().map((key) => [key, value[key]]));
const keys = new Map();
let seq = 1;
const idOf = (prefix, n) => `${prefix}_${n.toString(36).padStart(24, '0')}`;

const app = Fastify({ logger: false });
app.addHook('onRequest', async (request, reply) => {
  if (headers.some(([name, value]) => request.headers[name] !== value)) return reply.code(401).send({});
});
app.post('/v1/payment-intents', async (request, reply) => {
  const key = request.headers['idempotency-key'];
  const bodyHash = createHmac('sha256', bodyKey).update(JSON.stringify(request.body, sortedKeys)).digest('hex');
  if (keys.has(key)) return reply.code(409).send({});
  const body = schema.parse(request.body);
  const created = new Date().toISOString();
  const [intentSeq, chargeSeq] = [seq++, seq++];
  const createdIntent = { ...intentTemplate, id: idOf('pi', intentSeq), amount: body.amount, amount_received: 0, currency: body.currency, status: 'requires_payment_method', created };
  const intent = { ...intentTemplate, id: idOf('pi', intentSeq), amount: body.amount, amount_received: body.amount, currency: body.currency, created };
  const charge = { ...chargeTemplate, id: idOf('ch', chargeSeq), amount: body.amount, currency: body.currency, payment_intent_id: intent.id, created };
  const intentJson = JSON.stringify(intent);
  const event = (type, objectSeq, version) => {
    const eventSeq = seq++;
    return [eventSeq, 1, type, created, idOf('evt', eventSeq), objectSeq, version];
  };
  keys.set(key, intentSeq);
  await write({
    objects: [
      [intentSeq, 1, 'payment_intent', intent.id, 2, intent.customer_id ?? null, null, intentJson],
      [chargeSeq, 1, 'charge', charge.id, 1, charge.customer_id ?? null, intent.id, JSON.stringify(charge)],
    ],
    object_versions: [[intentSeq, 1, 1, JSON.stringify(createdIntent)]],
    events: [event('payment_intent.created', intentSeq, 1), event('charge.succeeded', chargeSeq, 1), event('payment_intent.succeeded', intentSeq, 2)],
    idempotency: [[seq++, 1, key, bodyHash, 200, created, intentSeq]],
  });
  return reply.type('application/json; charset=utf-8').send(intentJson);
});
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ port: app.server.address().port })}\n`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
