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
];
