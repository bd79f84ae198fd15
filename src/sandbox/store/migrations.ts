/**
 * Schema migrations, applied in order and recorded in `PRAGMA user_version`.
 * Append only: a released migration is never edited.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: accounts, the generic object store, the event log, idempotency records.
  `
  CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    api_key_hash TEXT NOT NULL UNIQUE,
    secret TEXT NOT NULL,
    clock_now TEXT NOT NULL,
    created TEXT NOT NULL
  );
  CREATE TABLE objects (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    account TEXT NOT NULL REFERENCES accounts(id),
    kind TEXT NOT NULL,
    data TEXT NOT NULL
  );
  CREATE INDEX objects_by_kind ON objects(account, kind, seq);
  CREATE INDEX objects_by_customer ON objects(account, kind, json_extract(data, '$.customer_id'), seq);
  CREATE INDEX objects_by_status ON objects(account, kind, json_extract(data, '$.status'), seq);
  CREATE INDEX objects_by_subscription ON objects(account, kind, json_extract(data, '$.subscription_id'), seq);
  CREATE INDEX objects_by_payment_intent ON objects(account, kind, json_extract(data, '$.payment_intent_id'), seq);
  CREATE TABLE events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    account TEXT NOT NULL REFERENCES accounts(id),
    type TEXT NOT NULL,
    created TEXT NOT NULL,
    data TEXT NOT NULL
  );
  CREATE INDEX events_by_account ON events(account, seq);
  CREATE INDEX events_by_type ON events(account, type, seq);
  CREATE TABLE idempotency (
    account TEXT NOT NULL,
    key TEXT NOT NULL,
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    body_hash TEXT NOT NULL,
    status INTEGER NOT NULL,
    response TEXT NOT NULL,
    created TEXT NOT NULL,
    PRIMARY KEY (account, key)
  );
  `,
  // 2: webhook endpoint secrets (never in the endpoint object), deliveries with their
  // attempts (so retries survive a restart), listen tunnels' cursors.
  `
  CREATE TABLE webhook_secrets (
    endpoint_id TEXT PRIMARY KEY,
    account TEXT NOT NULL REFERENCES accounts(id),
    secret TEXT NOT NULL
  );
  CREATE TABLE deliveries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    account TEXT NOT NULL REFERENCES accounts(id),
    event_id TEXT NOT NULL,
    endpoint_id TEXT NOT NULL,
    url TEXT NOT NULL,
    status TEXT NOT NULL,
    attempts TEXT NOT NULL DEFAULT '[]',
    next_attempt_at INTEGER,
    created INTEGER NOT NULL
  );
  CREATE INDEX deliveries_due ON deliveries(next_attempt_at) WHERE status = 'pending';
  CREATE INDEX deliveries_by_event ON deliveries(account, event_id, id);
  CREATE INDEX deliveries_by_endpoint ON deliveries(account, endpoint_id) WHERE status = 'pending';
  CREATE TABLE listen_cursors (
    account TEXT NOT NULL REFERENCES accounts(id),
    listener TEXT NOT NULL,
    last_seq INTEGER NOT NULL,
    updated TEXT NOT NULL,
    PRIMARY KEY (account, listener)
  );
  `,
  // 3: what the billing engine asks at every clock step: the earliest payment due and the
  // earliest cancel_at of a subscription still running.
  `
  CREATE INDEX subscriptions_by_next_payment ON objects(account, json_extract(data, '$.next_payment_at'))
    WHERE kind = 'subscription' AND json_extract(data, '$.next_payment_at') IS NOT NULL;
  CREATE INDEX subscriptions_by_cancel_at ON objects(account, json_extract(data, '$.cancel_at'))
    WHERE kind = 'subscription' AND json_extract(data, '$.status') <> 'canceled' AND json_extract(data, '$.cancel_at') IS NOT NULL;
  `,
  // 4: the fingerprint key leaves the database for the key file beside it (SandboxKeys).
  // Fingerprints made with the dropped keys stay, unlinkable to new ones of the same
  // card. Idempotency records go: their bodies were unkeyed hashes (a CVC could be
  // guessed from them) and their responses could hold a minted API key.
  `
  ALTER TABLE accounts DROP COLUMN secret;
  DELETE FROM idempotency;
  `,
  // 5: leaner rows. An event or a stored response whose object is the object as stored
  // names that version (object_seq, version) instead of copying it; an update or a delete
  // keeps the version it replaces in object_versions. Rows written before keep their
  // copies. The indexes of optional fields leave out the objects without them.
  `
  ALTER TABLE objects ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
  CREATE TABLE object_versions (
    object_seq INTEGER NOT NULL,
    version INTEGER NOT NULL,
    account TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (object_seq, version)
  ) WITHOUT ROWID;
  ALTER TABLE events ADD COLUMN object_seq INTEGER;
  ALTER TABLE events ADD COLUMN version INTEGER;
  ALTER TABLE idempotency ADD COLUMN object_seq INTEGER;
  ALTER TABLE idempotency ADD COLUMN version INTEGER;
  DROP INDEX objects_by_customer;
  DROP INDEX objects_by_subscription;
  DROP INDEX objects_by_payment_intent;
  CREATE INDEX objects_by_customer ON objects(account, kind, json_extract(data, '$.customer_id'), seq)
    WHERE json_extract(data, '$.customer_id') IS NOT NULL;
  CREATE INDEX objects_by_subscription ON objects(account, kind, json_extract(data, '$.subscription_id'), seq)
    WHERE json_extract(data, '$.subscription_id') IS NOT NULL;
  CREATE INDEX objects_by_payment_intent ON objects(account, kind, json_extract(data, '$.payment_intent_id'), seq)
    WHERE json_extract(data, '$.payment_intent_id') IS NOT NULL;
  `,
  // 6: lean rows for the write path (issue 12). Accounts get a small integer key that the
  // busy tables store instead of the account id. A new object's or event's id names its
  // row (rowId), so neither table keeps an index of ids; ids minted before stay findable
  // through legacy_ids. Objects keep the fields lists filter on and billing orders by as
  // columns (indexed only where a list or the billing engine asks), and their data
  // without key names (Shapes: the key lists live once in shapes); data written before
  // stays JSON text. Events and stored responses store a version's key, not a copy; an
  // update keeps the version it replaces by trigger, in the same statement, appended in
  // the order kept (a subscription billed for years adds versions to an old object: keyed
  // by object, each would land in the middle of the table).
  // Idempotency rows live in their primary key's B-tree. Events are no longer indexed by
  // type: a type filter reads the account's log in order.
  `
  ALTER TABLE accounts ADD COLUMN key INTEGER;
  UPDATE accounts SET key = rowid;
  CREATE UNIQUE INDEX accounts_by_key ON accounts(key);
  CREATE TABLE shapes (
    id INTEGER PRIMARY KEY,
    keys TEXT NOT NULL UNIQUE
  );
  CREATE TABLE legacy_ids (
    id TEXT PRIMARY KEY,
    seq INTEGER NOT NULL
  ) WITHOUT ROWID;
  INSERT INTO legacy_ids (id, seq) SELECT id, seq FROM objects;
  INSERT INTO legacy_ids (id, seq) SELECT id, seq FROM events;

  CREATE TABLE objects_v6 (
    seq INTEGER PRIMARY KEY,
    account INTEGER NOT NULL,
    kind TEXT NOT NULL,
    id TEXT NOT NULL,
    version INTEGER NOT NULL,
    status TEXT,
    customer_id TEXT,
    subscription_id TEXT,
    payment_intent_id TEXT,
    next_payment_at TEXT,
    cancel_at TEXT,
    data TEXT NOT NULL
  );
  INSERT INTO objects_v6
    SELECT o.seq, a.key, o.kind, o.id, o.version, json_extract(o.data, '$.status'), json_extract(o.data, '$.customer_id'),
      json_extract(o.data, '$.subscription_id'), json_extract(o.data, '$.payment_intent_id'),
      json_extract(o.data, '$.next_payment_at'), json_extract(o.data, '$.cancel_at'), o.data
    FROM objects o JOIN accounts a ON a.id = o.account;
  DROP TABLE objects;
  ALTER TABLE objects_v6 RENAME TO objects;
  CREATE INDEX objects_by_kind ON objects(account, kind, seq);
  CREATE INDEX objects_by_customer ON objects(account, kind, customer_id, seq) WHERE customer_id IS NOT NULL;
  CREATE INDEX objects_by_subscription ON objects(account, kind, subscription_id, seq) WHERE subscription_id IS NOT NULL;
  CREATE INDEX objects_by_payment_intent ON objects(account, kind, payment_intent_id, seq) WHERE payment_intent_id IS NOT NULL;
  CREATE INDEX objects_by_status ON objects(account, kind, status, seq)
    WHERE kind IN ('subscription', 'webhook_endpoint', 'checkout_session', 'refund');
  CREATE INDEX subscriptions_by_next_payment ON objects(account, next_payment_at) WHERE next_payment_at IS NOT NULL;
  CREATE INDEX subscriptions_by_cancel_at ON objects(account, cancel_at) WHERE cancel_at IS NOT NULL AND status <> 'canceled';

  CREATE TABLE object_versions_v6 (
    object_seq INTEGER NOT NULL,
    version INTEGER NOT NULL,
    account INTEGER NOT NULL,
    data TEXT NOT NULL
  );
  INSERT INTO object_versions_v6 SELECT v.object_seq, v.version, a.key, v.data FROM object_versions v JOIN accounts a ON a.id = v.account;
  DROP TABLE object_versions;
  ALTER TABLE object_versions_v6 RENAME TO object_versions;
  CREATE UNIQUE INDEX object_versions_by_object ON object_versions(object_seq, version);
  CREATE TRIGGER objects_keep_version BEFORE UPDATE OF data ON objects BEGIN
    INSERT INTO object_versions (object_seq, version, account, data) VALUES (OLD.seq, OLD.version, OLD.account, OLD.data);
  END;

  CREATE TABLE events_v6 (
    seq INTEGER PRIMARY KEY,
    account INTEGER NOT NULL,
    type TEXT NOT NULL,
    created TEXT NOT NULL,
    id TEXT NOT NULL,
    object_seq INTEGER,
    version INTEGER,
    data TEXT
  );
  INSERT INTO events_v6
    SELECT e.seq, a.key, e.type, e.created, e.id, e.object_seq, e.version, CASE WHEN e.object_seq IS NOT NULL AND e.data = '{}' THEN NULL ELSE e.data END
    FROM events e JOIN accounts a ON a.id = e.account;
  DROP TABLE events;
  ALTER TABLE events_v6 RENAME TO events;
  CREATE INDEX events_by_account ON events(account, seq);

  CREATE TABLE idempotency_v6 (
    account INTEGER NOT NULL,
    key TEXT NOT NULL,
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    body_hash TEXT NOT NULL,
    status INTEGER NOT NULL,
    created TEXT NOT NULL,
    object_seq INTEGER,
    version INTEGER,
    response TEXT,
    PRIMARY KEY (account, key)
  ) WITHOUT ROWID;
  INSERT INTO idempotency_v6
    SELECT a.key, i.key, i.method, i.path, i.body_hash, i.status, i.created, i.object_seq, i.version, CASE WHEN i.object_seq IS NULL THEN i.response END
    FROM idempotency i JOIN accounts a ON a.id = i.account;
  DROP TABLE idempotency;
  ALTER TABLE idempotency_v6 RENAME TO idempotency;
  `,
  // 7: idempotency records appended in the order made, with no index of their keys: a key
  // is found through the store's index in memory (IdempotencyStore), built at open. Keyed
  // by (account, key) in a B-tree, every request's random key landed on a page of its own,
  // written to the WAL and checkpointed again: half the bytes a request wrote.
  `
  CREATE TABLE idempotency_v7 (
    seq INTEGER PRIMARY KEY,
    account INTEGER NOT NULL,
    key TEXT NOT NULL,
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    body_hash TEXT NOT NULL,
    status INTEGER NOT NULL,
    created TEXT NOT NULL,
    object_seq INTEGER,
    version INTEGER,
    response TEXT
  );
  INSERT INTO idempotency_v7 (account, key, method, path, body_hash, status, created, object_seq, version, response)
    SELECT account, key, method, path, body_hash, status, created, object_seq, version, response FROM idempotency ORDER BY created;
  DROP TABLE idempotency;
  ALTER TABLE idempotency_v7 RENAME TO idempotency;
  `,
  // 8: objects_by_status goes. No query used it: SQLite uses a partial index only where a
  // query's WHERE implies the index's, and 'kind = ?' never implies 'kind IN (...)', so
  // status lists read the account's objects of that kind (objects_by_kind), as they did.
  // Yet every insert and update of an object paid for it: its IN list is built afresh each
  // time the statement runs (a third of an object write's time).
  `
  DROP INDEX objects_by_status;
  `,
  // 9: the highest event position an account reset erased. A position is never used
  // again (an erased event's id still says where a listener stood, EventLog.positionOf),
  // yet the log's next position was counted from the events left, so after a reset and a
  // restart new events took the erased positions.
  `
  CREATE TABLE erased_events (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    top INTEGER NOT NULL
  );
  `,
  // 10: the clock advance under way on an account, with the Idempotency-Key and body
  // hash of its request: a retry of an advance a crash cut short resumes toward its
  // target, where `days` counted again from the clock it reached would overshoot.
  `
  ALTER TABLE accounts ADD COLUMN clock_advance TEXT;
  `,
  // 11: the event log's identity, minted with the database. An event id names a position
  // of one log only, and positions start again in a new database (--memory, a new --db):
  // a listen cursor is compared with this log's positions only when it names this log.
  `
  CREATE TABLE event_log (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    identity TEXT NOT NULL
  );
  INSERT INTO event_log (id, identity) VALUES (1, 'log_' || lower(hex(randomblob(12))));
  `,
];
