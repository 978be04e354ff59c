/**
 * State in an embedded SQLite file (the default of `npm start`): a restart, or a crash, loses
 * nothing that was answered. For one instance: another process may open the same file and share
 * its data, but changes are announced only to listeners in the process that made them (every
 * store on the file in that process), so several instances behind a load balancer use the Redis
 * store instead. Opening and durability: ./open.ts.
 */
import { sealerFor } from '../core/data-sealer.js';
import { SharedStore } from '../core/shared-store.js';
import type { Clock } from '../store.js';
import { takeFeeds } from './file-feeds.js';
import { openDatabase, schemaVersion } from './open.js';
import { SqlitePrimitives } from './sqlite-primitives.js';
import { prepareStatements, type Db } from './statements.js';

export interface SqliteStoreOptions {
  /** The clock of leases, rate windows and default status times (default `Date.now`). */
  now?: Clock;
  /** How long a write waits for another connection's transaction before giving up (default 5 s). */
  busyTimeoutMs?: number;
  /** Encrypts personal data at rest (`ONBOARDING_DATA_KEY`'s format, docs/backend-api.md#personal-data-at-rest). */
  dataKey?: string;
}

export class SqliteStore extends SharedStore {
  readonly path: string;
  readonly #db: Db;
  readonly #primitives: SqlitePrimitives;

  /** Opens (creating it and its folder if needed) and migrates the database file at `path`. */
  constructor(path: string, options: SqliteStoreOptions = {}) {
    const now = options.now ?? Date.now;
    const sealer = sealerFor(options.dataKey);
    const { db, prepared: sql } = openDatabase(
      path,
      { busyTimeoutMs: options.busyTimeoutMs ?? 5_000, nowIso: () => new Date(now()).toISOString() },
      prepareStatements,
    );
    const primitives = new SqlitePrimitives(db, sql, takeFeeds(path), now);
    super(primitives, now, sealer);
    this.path = path;
    this.#db = db;
    this.#primitives = primitives;
  }

  /** The schema version the file is at. */
  schemaVersion(): number {
    return this.#primitives.run(() => schemaVersion(this.#db));
  }

  close(): Promise<void> {
    return this.shutdown();
  }
}
