/**
 * The SQLite store's schema, as numbered migrations. A database records the versions applied in
 * `schema_migrations`; opening it applies the missing ones in order, each in its own transaction.
 * Never edit a released migration: add the next one.
 */
export interface Migration {
  version: number;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE onboardings (
        token TEXT PRIMARY KEY,
        status TEXT NOT NULL,
        created_at TEXT NOT NULL,
        created_ms INTEGER NOT NULL,
        updated_at TEXT NOT NULL,
        external_id TEXT,
        access_key_hash TEXT NOT NULL,
        finished_at TEXT,
        finished_ms INTEGER
      );
      CREATE INDEX onboardings_in_process ON onboardings (token) WHERE status = 'IN_PROCESS';
      CREATE INDEX onboardings_created ON onboardings (created_ms);
      CREATE INDEX onboardings_finished ON onboardings (finished_ms) WHERE finished_ms IS NOT NULL;
      CREATE TABLE status_history (
        token TEXT NOT NULL REFERENCES onboardings (token) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        status TEXT NOT NULL,
        at TEXT NOT NULL,
        source TEXT NOT NULL,
        PRIMARY KEY (token, seq)
      ) WITHOUT ROWID;
      CREATE TABLE leases (
        name TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        expires_ms INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE TABLE rate_windows (
        key TEXT PRIMARY KEY,
        count INTEGER NOT NULL,
        reset_ms INTEGER NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    // The backend's state: sessions (JSON body beside the columns they are queried by, `version`
    // for compare-and-set), their secrets' hashes, idempotency keys and the notification outbox
    // (`seq` keeps queue order among entries created in the same millisecond).
    version: 2,
    sql: `
      ALTER TABLE onboardings ADD COLUMN session_id TEXT;
      CREATE TABLE onboarding_access_keys (
        token TEXT NOT NULL REFERENCES onboardings (token) ON DELETE CASCADE,
        hash TEXT NOT NULL,
        PRIMARY KEY (token, hash)
      );
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        version INTEGER NOT NULL,
        reference TEXT NOT NULL,
        status TEXT NOT NULL,
        created_ms INTEGER NOT NULL,
        expires_ms INTEGER NOT NULL,
        ended_ms INTEGER,
        body TEXT NOT NULL
      );
      CREATE INDEX sessions_reference ON sessions (reference, created_ms);
      CREATE INDEX sessions_status ON sessions (status, expires_ms);
      CREATE INDEX sessions_created ON sessions (created_ms);
      CREATE INDEX sessions_ended ON sessions (ended_ms) WHERE ended_ms IS NOT NULL;
      CREATE TABLE session_secrets (
        hash TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE
      ) WITHOUT ROWID;
      CREATE INDEX session_secrets_session ON session_secrets (session_id);
      CREATE TABLE idempotency_keys (
        key TEXT PRIMARY KEY,
        fingerprint TEXT NOT NULL,
        result TEXT,
        expires_ms INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX idempotency_keys_expires ON idempotency_keys (expires_ms);
      CREATE TABLE outbox (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        type TEXT NOT NULL,
        body TEXT NOT NULL,
        order_key TEXT NOT NULL,
        created_at TEXT NOT NULL,
        created_ms INTEGER NOT NULL,
        state TEXT NOT NULL,
        attempts INTEGER NOT NULL,
        next_attempt_ms INTEGER NOT NULL,
        last_attempt_at TEXT,
        last_error TEXT,
        delivered_at TEXT,
        changed_ms INTEGER NOT NULL
      );
      CREATE INDEX outbox_state ON outbox (state, created_ms, seq);
      CREATE INDEX outbox_settled ON outbox (changed_ms) WHERE state <> 'pending';
    `,
  },
  {
    // Hand-off keys (the hashes of a link's token and short code) pointing at their session:
    // `live_until_ms` says until when no other session may take the same hash.
    version: 3,
    sql: `
      CREATE TABLE handoff_keys (
        hash TEXT PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        live_until_ms INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX handoff_keys_session ON handoff_keys (session_id);
    `,
  },
  {
    // The photos kept anyway, as the creation declared them: a JSON object, NULL when none was.
    version: 4,
    sql: `
      ALTER TABLE onboardings ADD COLUMN kept_anyway TEXT;
    `,
  },
  {
    // Standalone query requests ("query requests" migration): the JSON body beside the columns
    // they are found by; the outcome (sealed at rest) in its own column, which retention sets to NULL.
    version: 5,
    sql: `
      CREATE TABLE query_requests (
        id TEXT PRIMARY KEY,
        inspection_key TEXT,
        status TEXT NOT NULL,
        created_ms INTEGER NOT NULL,
        completed_ms INTEGER,
        next_check_ms INTEGER,
        body TEXT NOT NULL,
        outcome TEXT
      );
      CREATE INDEX query_requests_key ON query_requests (inspection_key, created_ms) WHERE inspection_key IS NOT NULL;
      CREATE INDEX query_requests_due ON query_requests (next_check_ms) WHERE status = 'pending';
      CREATE INDEX query_requests_outcome ON query_requests (completed_ms) WHERE outcome IS NOT NULL;
      CREATE INDEX query_requests_created ON query_requests (created_ms);
    `,
  },
  {
    // GET /v1/sessions pages newest first by (created_ms, id), with or without a reference or a
    // status: one index per shape, so a page reads only its own rows.
    version: 6,
    sql: `
      CREATE INDEX sessions_listing ON sessions (created_ms, id);
      CREATE INDEX sessions_reference_listing ON sessions (reference, created_ms, id);
      CREATE INDEX sessions_status_listing ON sessions (status, created_ms, id);
    `,
  },
  {
    // Places (rules/places.ts): who holds one of a key's few places, until when.
    version: 7,
    sql: `
      CREATE TABLE places (
        key TEXT NOT NULL,
        holder TEXT NOT NULL,
        expires_ms INTEGER NOT NULL,
        PRIMARY KEY (key, holder)
      ) WITHOUT ROWID;
    `,
  },
  {
    // Attested hashes (rules/attested-hashes.ts): the SHA-256 of an image a creation attested,
    // the nonce it came under, and until when it is remembered; never the image.
    version: 8,
    sql: `
      CREATE TABLE attested_hashes (
        sha256 TEXT PRIMARY KEY,
        nonce TEXT NOT NULL,
        expires_ms INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX attested_hashes_expires ON attested_hashes (expires_ms);
    `,
  },
];

export const LATEST_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
