/**
 * State in an embedded SQLite file (the default of `npm start`): a restart, or a crash, loses
 * nothing that was answered. For one instance: another process may open the same file and share
 * its data, but changes are announced only to listeners in the process that made them (every
 * store on the file in that process), so several instances behind a load balancer use the Redis
 * store instead.
 *
 * Durability: WAL journal with `synchronous = FULL`, so every commit is fsynced before the call
 * returns. A killed process (SIGKILL) would already lose nothing with NORMAL, since a committed
 * WAL frame is in the operating system's hands; FULL also keeps the last commits through a power
 * cut, at one fsync per write, which the few writes per onboarding easily afford.
 */
import { mkdirSync, realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'libsql';
import { ChangeFeed } from './change-feed.js';
import { StoreConfigError, StoreUnavailableError } from './errors.js';
import { msOf } from './iso-time.js';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from './sqlite-schema.js';
import { applyStatusRules } from './status-rules.js';
import type {
  ApplyResult, ChangeListener, Clock, OnboardingRecord, RateLimitDecision, StatusEvent, StatusUpdate, Store,
} from './store.js';

export interface SqliteStoreOptions {
  /** The clock of leases, rate windows and default status times (default `Date.now`). */
  now?: Clock;
  /** How long a write waits for another connection's transaction before giving up (default 5 s). */
  busyTimeoutMs?: number;
}

type Db = Database.Database;

interface OnboardingRow {
  token: string;
  status: OnboardingRecord['status'];
  created_at: string;
  updated_at: string;
  external_id: string | null;
  access_key_hash: string;
  finished_at: string | null;
}

/** SQLite result codes that mean "not now" (locked, disk trouble, gone) rather than a bug in a query. */
const UNAVAILABLE_CODE = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|READONLY|CORRUPT|NOTADB|PROTOCOL|NOLFS|AUTH)/;

function toStoreError(e: unknown): unknown {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && UNAVAILABLE_CODE.test(code)) return new StoreUnavailableError(`The SQLite store is unavailable (${code}).`, { cause: e });
  return e;
}

export class SqliteStore implements Store {
  readonly path: string;
  private readonly db: Db;
  private readonly feed: ChangeFeed;
  private readonly feedKey: string | undefined;
  private readonly subscriptions = new Set<() => void>();
  private readonly now: Clock;
  private readonly sql: Statements;
  private closed = false;
  private nextSweep = 0;

  /** Opens (creating it and its folder if needed) and migrates the database file at `path`. */
  constructor(path: string, options: SqliteStoreOptions = {}) {
    this.path = path;
    this.now = options.now ?? Date.now;
    try {
      if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
      this.db = new Database(path);
    } catch (e) {
      throw toStoreError(e);
    }
    try {
      const mode = (this.db.pragma('journal_mode = WAL') as Array<{ journal_mode?: string }>)[0]?.journal_mode;
      // WAL is what lets readers run beside the writer and makes each commit one append; refuse to run without it.
      if (path !== ':memory:' && String(mode).toLowerCase() !== 'wal') throw new StoreConfigError(`SQLite store ${path}: the WAL journal could not be enabled (got ${String(mode)}).`);
      this.db.pragma('synchronous = FULL');
      this.db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? 5_000))}`);
      this.db.pragma('foreign_keys = ON');
      this.migrate();
      this.sql = prepareStatements(this.db);
      this.feedKey = path === ':memory:' ? undefined : feedKey(path);
      this.feed = this.feedKey ? takeFeed(this.feedKey) : new ChangeFeed();
    } catch (e) {
      this.db.close();
      throw toStoreError(e);
    }
  }

  /** The schema version the file is at. */
  schemaVersion(): number {
    return this.run(() => this.currentVersion());
  }

  async create(input: Parameters<Store['create']>[0]): Promise<OnboardingRecord> {
    const record: OnboardingRecord = {
      ...input,
      updatedAt: input.createdAt,
      history: input.history ?? [{ status: input.status, at: input.createdAt, source: 'creation' }],
    };
    this.run(() =>
      this.db.transaction(() => {
        this.sql.deleteHistory.run(record.tokenOnboarding);
        this.sql.deleteOnboarding.run(record.tokenOnboarding);
        this.sql.insertOnboarding.run(
          record.tokenOnboarding, record.status, record.createdAt, msOf(record.createdAt), record.updatedAt,
          record.externalId ?? null, record.accessKeyHash, record.finishedAt ?? null, record.finishedAt ? msOf(record.finishedAt) : null,
        );
        record.history.forEach((h, seq) => this.sql.insertHistory.run(record.tokenOnboarding, seq, h.status, h.at, h.source));
      }).immediate(),
    );
    return (await this.get(record.tokenOnboarding))!;
  }

  async get(token: string): Promise<OnboardingRecord | null> {
    // One read transaction, so the record and its history come from the same commit.
    return this.run(() => this.db.transaction(() => this.load(token)).deferred());
  }

  async applyStatus(token: string, update: StatusUpdate): Promise<ApplyResult | null> {
    const at = update.at ?? new Date(this.now()).toISOString();
    // IMMEDIATE takes the write lock before reading, so two writers (even in two processes) apply
    // their updates one after the other, each to the state the other left.
    const outcome = this.run(() =>
      this.db.transaction(() => {
        const current = this.load(token);
        if (!current) return null;
        const result = applyStatusRules(current, update, at);
        const r = result.record;
        if (result.changed) {
          this.sql.updateStatus.run(r.status, r.updatedAt, r.externalId ?? null, r.finishedAt ?? null, r.finishedAt ? msOf(r.finishedAt) : null, token);
          const last = r.history[r.history.length - 1]!;
          this.sql.insertHistory.run(token, r.history.length - 1, last.status, last.at, last.source);
        } else if (result.touched) {
          this.sql.updateExternalId.run(r.externalId ?? null, token);
        }
        return result;
      }).immediate(),
    );
    if (!outcome) return null;
    if (outcome.changed) this.feed.emit(outcome.record);
    return { record: outcome.record, changed: outcome.changed };
  }

  subscribe(token: string, listener: ChangeListener): () => void {
    const off = this.feed.subscribe(token, listener);
    const unsubscribe = () => {
      off();
      this.subscriptions.delete(unsubscribe);
    };
    this.subscriptions.add(unsubscribe);
    return unsubscribe;
  }

  async listInProcess(): Promise<string[]> {
    return this.run(() => (this.sql.inProcess.all() as Array<{ token: string }>).map((r) => r.token));
  }

  async expire({ finishedBefore, createdBefore }: { finishedBefore: Date; createdBefore: Date }): Promise<number> {
    const f = finishedBefore.getTime();
    const c = createdBefore.getTime();
    return this.run(() =>
      this.db.transaction(() => {
        this.sql.expireHistory.run(f, c);
        return this.sql.expireOnboardings.run(f, c).changes;
      }).immediate(),
    );
  }

  async acquireLease(name: string, owner: string, ttlMs: number): Promise<boolean> {
    const t = this.now();
    return this.run(() => this.sql.acquireLease.run(name, owner, t + ttlMs, t).changes === 1);
  }

  async renewLease(name: string, owner: string, ttlMs: number): Promise<boolean> {
    const t = this.now();
    return this.run(() => this.sql.renewLease.run(t + ttlMs, name, owner, t).changes === 1);
  }

  async renewLeases(names: string[], owner: string, ttlMs: number): Promise<string[]> {
    const unique = [...new Set(names)];
    if (unique.length === 0) return [];
    const t = this.now();
    // One transaction, so one commit and one fsync for them all: with synchronous = FULL each
    // statement on its own would pay its fsync on the event loop, thousands of them every period.
    return this.run(() =>
      this.db.transaction(() => unique.filter((name) => this.sql.renewLease.run(t + ttlMs, name, owner, t).changes === 1)).immediate(),
    );
  }

  async releaseLease(name: string, owner: string): Promise<boolean> {
    const t = this.now();
    return this.run(() => this.sql.releaseLease.run(name, owner, t).changes === 1);
  }

  async consumeRateLimit(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    const t = this.now();
    return this.run(() =>
      this.db.transaction(() => {
        if (t >= this.nextSweep) {
          // Forget ended windows and lapsed leases, so the tables stay as small as the set of recent clients.
          this.sql.sweepWindows.run(t);
          this.sql.sweepLeases.run(t);
          this.nextSweep = t + windowMs;
        }
        const row = this.sql.getWindow.get(key) as { count: number; reset_ms: number } | undefined;
        let count = row && row.reset_ms > t ? row.count : 0;
        const resetAt = row && row.reset_ms > t ? row.reset_ms : t + windowMs;
        const allowed = count < limit;
        if (allowed) this.sql.putWindow.run(key, ++count, resetAt);
        return { allowed, count, retryAfterMs: resetAt - t };
      }).immediate(),
    );
  }

  async ping(): Promise<void> {
    this.run(() => this.sql.ping.get());
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const off of [...this.subscriptions]) off();
    if (this.feedKey) dropFeed(this.feedKey);
    this.db.close();
  }

  private run<T>(fn: () => T): T {
    if (this.closed) throw new StoreUnavailableError('The SQLite store is closed.');
    try {
      return fn();
    } catch (e) {
      throw toStoreError(e);
    }
  }

  private load(token: string): OnboardingRecord | null {
    const row = this.sql.getOnboarding.get(token) as OnboardingRow | undefined;
    if (!row) return null;
    const history = (this.sql.getHistory.all(token) as StatusEvent[]).map(({ status, at, source }) => ({ status, at, source }));
    return {
      tokenOnboarding: row.token,
      status: row.status,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      ...(row.external_id !== null && { externalId: row.external_id }),
      accessKeyHash: row.access_key_hash,
      history,
      ...(row.finished_at !== null && { finishedAt: row.finished_at }),
    };
  }

  private currentVersion(): number {
    const row = this.db.prepare('SELECT MAX(version) AS version FROM schema_migrations').get() as { version: number | null };
    return row.version ?? 0;
  }

  private migrate(): void {
    this.db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
    // IMMEDIATE: two processes opening a new file at once migrate it once, one after the other.
    this.db.transaction(() => {
      const current = this.currentVersion();
      if (current > LATEST_SCHEMA_VERSION) {
        throw new StoreConfigError(`SQLite store ${this.path} has schema version ${current}, newer than this kit's ${LATEST_SCHEMA_VERSION}: upgrade the kit or use another file.`);
      }
      const record = this.db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)');
      for (const m of MIGRATIONS) {
        if (m.version <= current) continue;
        this.db.exec(m.sql);
        record.run(m.version, new Date(this.now()).toISOString());
      }
    }).immediate();
  }
}

function prepareStatements(db: Db) {
  const p = (sql: string) => db.prepare(sql);
  return {
    ping: p('SELECT 1 AS ok'),
    getOnboarding: p('SELECT token, status, created_at, updated_at, external_id, access_key_hash, finished_at FROM onboardings WHERE token = ?'),
    getHistory: p('SELECT status, at, source FROM status_history WHERE token = ? ORDER BY seq'),
    insertOnboarding: p(`INSERT INTO onboardings (token, status, created_at, created_ms, updated_at, external_id, access_key_hash, finished_at, finished_ms)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    insertHistory: p('INSERT INTO status_history (token, seq, status, at, source) VALUES (?, ?, ?, ?, ?)'),
    deleteOnboarding: p('DELETE FROM onboardings WHERE token = ?'),
    deleteHistory: p('DELETE FROM status_history WHERE token = ?'),
    updateStatus: p('UPDATE onboardings SET status = ?, updated_at = ?, external_id = ?, finished_at = ?, finished_ms = ? WHERE token = ?'),
    updateExternalId: p('UPDATE onboardings SET external_id = ? WHERE token = ?'),
    inProcess: p("SELECT token FROM onboardings WHERE status = 'IN_PROCESS'"),
    expireHistory: p('DELETE FROM status_history WHERE token IN (SELECT token FROM onboardings WHERE finished_ms < ?1 OR created_ms < ?2)'),
    expireOnboardings: p('DELETE FROM onboardings WHERE finished_ms < ?1 OR created_ms < ?2'),
    // Taken when free, lapsed (expires_ms <= now) or already the caller's: one statement, so it is atomic.
    acquireLease: p(`INSERT INTO leases (name, owner, expires_ms) VALUES (?1, ?2, ?3)
      ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_ms = excluded.expires_ms
      WHERE leases.owner = excluded.owner OR leases.expires_ms <= ?4`),
    renewLease: p('UPDATE leases SET expires_ms = ?1 WHERE name = ?2 AND owner = ?3 AND expires_ms > ?4'),
    releaseLease: p('DELETE FROM leases WHERE name = ?1 AND owner = ?2 AND expires_ms > ?3'),
    sweepLeases: p('DELETE FROM leases WHERE expires_ms <= ?'),
    getWindow: p('SELECT count, reset_ms FROM rate_windows WHERE key = ?'),
    putWindow: p('INSERT INTO rate_windows (key, count, reset_ms) VALUES (?1, ?2, ?3) ON CONFLICT (key) DO UPDATE SET count = excluded.count, reset_ms = excluded.reset_ms'),
    sweepWindows: p('DELETE FROM rate_windows WHERE reset_ms <= ?'),
  };
}

type Statements = ReturnType<typeof prepareStatements>;

/** Stores on one file in one process share a feed, so each hears the changes another made. */
const feeds = new Map<string, { feed: ChangeFeed; users: number }>();

function feedKey(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function takeFeed(key: string): ChangeFeed {
  const entry = feeds.get(key) ?? { feed: new ChangeFeed(), users: 0 };
  entry.users++;
  feeds.set(key, entry);
  return entry.feed;
}

function dropFeed(key: string): void {
  const entry = feeds.get(key);
  if (entry && --entry.users <= 0) feeds.delete(key);
}
