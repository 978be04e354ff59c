/**
 * Opening a SQLite store's file: created with its folder if needed, in WAL mode, migrated to the
 * latest schema. The file, its WAL and shared-memory index are readable by their owner only
 * (0600, whatever the umask): they hold personal data. Durability: `synchronous = FULL`, so every commit is fsynced before the call
 * returns. A killed process (SIGKILL) would already lose nothing with NORMAL, since a committed
 * WAL frame is in the operating system's hands; FULL also keeps the last commits through a power
 * cut, at one fsync per write, which the few writes per onboarding easily afford.
 */
import { chmodSync, closeSync, fchmodSync, mkdirSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type Database from 'libsql';
import { StoreConfigError, StoreUnavailableError } from '../errors.js';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from './schema.js';
import type { Db } from './statements.js';

// libsql (a native module) is loaded by the first SQLite store, not when this module is imported:
// a companion on another store never pays for it.
const requireHere = createRequire(import.meta.url);
let libsql: typeof Database | undefined;

/** SQLite result codes that mean "not now" (locked, disk trouble, gone) rather than a bug in a query. */
const UNAVAILABLE_CODE = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|READONLY|CORRUPT|NOTADB|PROTOCOL|NOLFS|AUTH)/;

export function toStoreError(e: unknown): unknown {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && UNAVAILABLE_CODE.test(code))
    return new StoreUnavailableError(`The SQLite store is unavailable (${code}).`, { cause: e });
  return e;
}

/** Opens and prepares the database at `path`; on any failure it is closed again and the error thrown. */
export function openDatabase<T>(
  path: string,
  options: { busyTimeoutMs: number; nowIso: () => string },
  prepare: (db: Db) => T,
): { db: Db; prepared: T } {
  let db: Db;
  try {
    if (path !== ':memory:') {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      createOwnerOnly(path);
    }
    db = new (libsql ??= requireHere('libsql') as typeof Database)(path);
  } catch (e) {
    throw toStoreError(e);
  }
  try {
    const mode = (db.pragma('journal_mode = WAL') as Array<{ journal_mode?: string }>)[0]?.journal_mode;
    // WAL is what lets readers run beside the writer and makes each commit one append; refuse to run without it.
    if (path !== ':memory:' && String(mode).toLowerCase() !== 'wal')
      throw new StoreConfigError(`SQLite store ${path}: the WAL journal could not be enabled (got ${String(mode)}).`);
    db.pragma('synchronous = FULL');
    db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs))}`);
    db.pragma('foreign_keys = ON');
    // Retention deletes personal data: overwrite what a delete frees, so it does not stay readable in free pages.
    db.pragma('secure_delete = ON');
    migrate(db, path, options.nowIso);
    if (path !== ':memory:') for (const suffix of SIDE_FILES) ownerOnlyIfPresent(path + suffix);
    return { db, prepared: prepare(db) };
  } catch (e) {
    db.close();
    throw toStoreError(e);
  }
}

/** SQLite's files beside the database; it creates them with the database's mode, which this makes sure of. */
const SIDE_FILES = ['-wal', '-shm', '-journal'] as const;
const OWNER_ONLY = 0o600;

/**
 * Creates the file before SQLite does (which would follow the umask), or tightens one that exists:
 * `openSync`'s mode is cut by the umask and never applies to an existing file, `fchmod` is not.
 */
function createOwnerOnly(path: string): void {
  const fd = openSync(path, 'a', OWNER_ONLY);
  try {
    fchmodSync(fd, OWNER_ONLY);
  } finally {
    closeSync(fd);
  }
}

function ownerOnlyIfPresent(path: string): void {
  try {
    chmodSync(path, OWNER_ONLY);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}

export function schemaVersion(db: Db): number {
  const row = db.prepare('SELECT MAX(version) AS version FROM schema_migrations').get() as { version: number | null };
  return row.version ?? 0;
}

function migrate(db: Db, path: string, nowIso: () => string): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
  // IMMEDIATE: two processes opening a new file at once migrate it once, one after the other.
  db.transaction(() => {
    const current = schemaVersion(db);
    if (current > LATEST_SCHEMA_VERSION) {
      throw new StoreConfigError(
        `SQLite store ${path} has schema version ${current}, newer than this kit's ${LATEST_SCHEMA_VERSION}: upgrade the kit or use another file.`,
      );
    }
    const record = db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)');
    for (const m of MIGRATIONS) {
      if (m.version <= current) continue;
      db.exec(m.sql);
      record.run(m.version, nowIso());
    }
  }).immediate();
}
