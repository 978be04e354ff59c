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
];

export const LATEST_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
