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
import type { SessionStatus } from '@onboarding-kit/contract';
import { createRequire } from 'node:module';
import type Database from 'libsql';
import { applyOutboxUpdate, outboxChangedMs } from './rules/index.js';
import type {
  BackendPurgeCutoffs, BackendState, IdempotencyState, OutboxEntry, OutboxState, OutboxUpdate, SessionChangeListener, SessionRecord, SessionSecretKind,
} from './backend-state.js';
import { ChangeFeed } from './shared/change-feed.js';
import { SessionFeed } from './shared/session-feed.js';
import { StoreConfigError, StoreUnavailableError } from './errors.js';
import { msOf } from './rules/iso-time.js';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from './sqlite-schema.js';
import { applyStatusRules } from './rules/status.js';
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

// libsql (a native module) is loaded by the first SQLite store, not when this module is imported:
// a companion on another store never pays for it.
const requireHere = createRequire(import.meta.url);
let libsql: typeof Database | undefined;
const openDatabase = (path: string): Db => new (libsql ??= requireHere('libsql') as typeof Database)(path);

interface OnboardingRow {
  token: string;
  status: OnboardingRecord['status'];
  created_at: string;
  updated_at: string;
  external_id: string | null;
  access_key_hash: string;
  finished_at: string | null;
  session_id: string | null;
}

interface SessionRow {
  version: number;
  body: string;
}

interface OutboxRow {
  id: string;
  type: OutboxEntry['type'];
  body: string;
  order_key: string;
  created_at: string;
  state: OutboxState;
  attempts: number;
  next_attempt_ms: number;
  last_attempt_at: string | null;
  last_error: string | null;
  delivered_at: string | null;
}

/** SQLite result codes that mean "not now" (locked, disk trouble, gone) rather than a bug in a query. */
const UNAVAILABLE_CODE = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|READONLY|CORRUPT|NOTADB|PROTOCOL|NOLFS|AUTH)/;

function toStoreError(e: unknown): unknown {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && UNAVAILABLE_CODE.test(code)) return new StoreUnavailableError(`The SQLite store is unavailable (${code}).`, { cause: e });
  return e;
}

export class SqliteStore implements Store, BackendState {
  readonly path: string;
  private readonly db: Db;
  private readonly feed: ChangeFeed;
  private readonly sessionFeed: SessionFeed;
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
      this.db = openDatabase(path);
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
      const feeds = this.feedKey ? takeFeed(this.feedKey) : { feed: new ChangeFeed(), sessions: new SessionFeed() };
      this.feed = feeds.feed;
      this.sessionFeed = feeds.sessions;
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
        this.sql.deleteAccessKeys.run(record.tokenOnboarding);
        this.sql.deleteOnboarding.run(record.tokenOnboarding);
        this.sql.insertOnboarding.run(
          record.tokenOnboarding, record.status, record.createdAt, msOf(record.createdAt), record.updatedAt,
          record.externalId ?? null, record.accessKeyHash, record.finishedAt ?? null, record.finishedAt ? msOf(record.finishedAt) : null,
          record.sessionId ?? null,
        );
        record.history.forEach((h, seq) => this.sql.insertHistory.run(record.tokenOnboarding, seq, h.status, h.at, h.source));
        for (const hash of record.moreAccessKeyHashes ?? []) this.sql.insertAccessKey.run(record.tokenOnboarding, hash);
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
        this.sql.expireAccessKeys.run(f, c);
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
          // Forget ended windows, lapsed leases and idempotency keys, so the tables stay as small as the set of recent clients.
          this.sql.sweepWindows.run(t);
          this.sql.sweepLeases.run(t);
          this.sql.sweepIdempotency.run(t);
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

  async createSession(record: SessionRecord, secrets: { client: string; capture: string }): Promise<void> {
    const r = { ...record, version: 1 };
    this.run(() =>
      this.db.transaction(() => {
        this.sql.insertSession.run(r.id, r.version, r.reference, r.status, msOf(r.createdAt), msOf(r.expiresAt), r.endedAt ? msOf(r.endedAt) : null, sessionBody(r));
        this.sql.insertSecret.run(secrets.client, 'client', r.id);
        this.sql.insertSecret.run(secrets.capture, 'capture', r.id);
      }).immediate(),
    );
  }

  async getSession(id: string): Promise<SessionRecord | null> {
    return this.run(() => toSession(this.sql.getSession.get(id) as SessionRow | undefined));
  }

  async findSessionBySecret(kind: SessionSecretKind, secretHash: string): Promise<SessionRecord | null> {
    return this.run(() => toSession(this.sql.findSessionBySecret.get(secretHash, kind) as SessionRow | undefined));
  }

  async addSessionSecret(id: string, kind: SessionSecretKind, secretHash: string): Promise<boolean> {
    return this.run(() =>
      this.db.transaction(() => {
        if (!this.sql.getSession.get(id)) return false;
        this.sql.insertSecret.run(secretHash, kind, id);
        return true;
      }).immediate(),
    );
  }

  async replaceSession(next: SessionRecord, expectedVersion: number): Promise<boolean> {
    const r = { ...next, version: expectedVersion + 1 };
    const ended = r.endedAt ? msOf(r.endedAt) : null;
    const written = this.run(
      () => this.sql.replaceSession.run(r.version, r.reference, r.status, msOf(r.createdAt), msOf(r.expiresAt), ended, sessionBody(r), r.id, expectedVersion).changes === 1,
    );
    if (written) this.sessionFeed.emit(r.id);
    return written;
  }

  subscribeSession(id: string, listener: SessionChangeListener): () => void {
    const off = this.sessionFeed.subscribe(id, listener);
    const unsubscribe = () => {
      off();
      this.subscriptions.delete(unsubscribe);
    };
    this.subscriptions.add(unsubscribe);
    return unsubscribe;
  }

  async putHandoffKey(hash: string, sessionId: string, liveUntilMs: number): Promise<boolean> {
    const t = this.now();
    return this.run(() =>
      this.db.transaction(() => Boolean(this.sql.getSession.get(sessionId)) && this.sql.putHandoffKey.run(hash, sessionId, liveUntilMs, t).changes === 1).immediate(),
    );
  }

  async findHandoffKey(hash: string): Promise<string | null> {
    return this.run(() => (this.sql.findHandoffKey.get(hash) as { session_id: string } | undefined)?.session_id ?? null);
  }

  async listSessionsByReference(reference: string, limit: number): Promise<SessionRecord[]> {
    return this.run(() => (this.sql.sessionsByReference.all(reference, Math.max(0, limit)) as SessionRow[]).map((row) => toSession(row)!));
  }

  async listSessionsByStatus(status: SessionStatus, { limit, expiresBefore }: { limit: number; expiresBefore?: Date }): Promise<SessionRecord[]> {
    const cutoff = expiresBefore?.getTime() ?? Number.MAX_SAFE_INTEGER;
    return this.run(() => (this.sql.sessionsByStatus.all(status, cutoff, Math.max(0, limit)) as SessionRow[]).map((row) => toSession(row)!));
  }

  async reserveIdempotencyKey(key: string, fingerprint: string, { ttlMs, pendingTtlMs }: { ttlMs: number; pendingTtlMs: number }): Promise<IdempotencyState> {
    const t = this.now();
    return this.run(() =>
      this.db.transaction((): IdempotencyState => {
        const held = this.sql.getIdempotency.get(key) as { fingerprint: string; result: string | null; expires_ms: number } | undefined;
        if (held && held.expires_ms > t) {
          return held.result === null ? { state: 'pending', fingerprint: held.fingerprint } : { state: 'done', fingerprint: held.fingerprint, result: held.result };
        }
        this.sql.putIdempotency.run(key, fingerprint, t + Math.min(ttlMs, pendingTtlMs));
        return { state: 'reserved' };
      }).immediate(),
    );
  }

  async completeIdempotencyKey(key: string, result: string, ttlMs: number): Promise<void> {
    const t = this.now();
    this.run(() => this.sql.completeIdempotency.run(key, result, t + ttlMs));
  }

  async releaseIdempotencyKey(key: string): Promise<void> {
    this.run(() => this.sql.releaseIdempotency.run(key));
  }

  async addAccessKey(token: string, accessKeyHash: string): Promise<boolean> {
    return this.run(() =>
      this.db.transaction(() => {
        if (!this.sql.getOnboarding.get(token)) return false;
        this.sql.insertAccessKey.run(token, accessKeyHash);
        return true;
      }).immediate(),
    );
  }

  async enqueueNotification(entry: OutboxEntry): Promise<boolean> {
    const e = applyOutboxUpdate(entry, entry);
    return this.run(
      () =>
        this.sql.enqueue.run(
          e.id, e.type, e.body, e.orderKey, e.createdAt, msOf(e.createdAt), e.state, e.attempts, e.nextAttemptMs,
          e.lastAttemptAt ?? null, e.lastError ?? null, e.deliveredAt ?? null, outboxChangedMs(e),
        ).changes === 1,
    );
  }

  async dueNotifications(nowMs: number, limit: number): Promise<OutboxEntry[]> {
    return this.run(() => (this.sql.dueNotifications.all(nowMs, Math.max(0, limit)) as OutboxRow[]).map(toOutboxEntry));
  }

  async updateNotification(id: string, update: OutboxUpdate): Promise<boolean> {
    const u = update;
    const changed = u.deliveredAt ?? u.lastAttemptAt;
    return this.run(
      () =>
        this.sql.updateNotification.run(
          u.state, u.attempts, u.nextAttemptMs, u.lastAttemptAt ?? null, u.lastError ?? null, u.deliveredAt ?? null, changed ? msOf(changed) : null, id,
        ).changes === 1,
    );
  }

  async getNotification(id: string): Promise<OutboxEntry | null> {
    return this.run(() => {
      const row = this.sql.getNotification.get(id) as OutboxRow | undefined;
      return row ? toOutboxEntry(row) : null;
    });
  }

  async listNotifications({ state, failingOnly, limit }: { state: OutboxState; failingOnly?: boolean; limit: number }): Promise<OutboxEntry[]> {
    return this.run(() => (this.sql.listNotifications.all(state, failingOnly ? 1 : 0, Math.max(0, limit)) as OutboxRow[]).map(toOutboxEntry));
  }

  async purgeBackendState({ sessionsEndedBefore, sessionsCreatedBefore, outboxBefore }: BackendPurgeCutoffs): Promise<number> {
    const [ended, created, settled] = [sessionsEndedBefore.getTime(), sessionsCreatedBefore.getTime(), outboxBefore.getTime()];
    const t = this.now();
    return this.run(() =>
      this.db.transaction(() => {
        this.sql.purgeSecrets.run(ended, created);
        this.sql.purgeHandoffKeys.run(ended, created);
        const sessions = this.sql.purgeSessions.run(ended, created).changes;
        const entries = this.sql.purgeOutbox.run(settled).changes;
        // Lapsed keys are free already; deleting them only keeps the table small, so they are not counted.
        this.sql.sweepIdempotency.run(t);
        return sessions + entries;
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
    const more = (this.sql.getAccessKeys.all(token) as Array<{ hash: string }>).map((k) => k.hash);
    return {
      tokenOnboarding: row.token,
      status: row.status,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      ...(row.external_id !== null && { externalId: row.external_id }),
      accessKeyHash: row.access_key_hash,
      history,
      ...(row.finished_at !== null && { finishedAt: row.finished_at }),
      ...(row.session_id !== null && { sessionId: row.session_id }),
      ...(more.length > 0 && { moreAccessKeyHashes: more }),
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
    getOnboarding: p('SELECT token, status, created_at, updated_at, external_id, access_key_hash, finished_at, session_id FROM onboardings WHERE token = ?'),
    getHistory: p('SELECT status, at, source FROM status_history WHERE token = ? ORDER BY seq'),
    insertOnboarding: p(`INSERT INTO onboardings (token, status, created_at, created_ms, updated_at, external_id, access_key_hash, finished_at, finished_ms, session_id)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    insertHistory: p('INSERT INTO status_history (token, seq, status, at, source) VALUES (?, ?, ?, ?, ?)'),
    deleteOnboarding: p('DELETE FROM onboardings WHERE token = ?'),
    deleteHistory: p('DELETE FROM status_history WHERE token = ?'),
    updateStatus: p('UPDATE onboardings SET status = ?, updated_at = ?, external_id = ?, finished_at = ?, finished_ms = ? WHERE token = ?'),
    updateExternalId: p('UPDATE onboardings SET external_id = ? WHERE token = ?'),
    inProcess: p("SELECT token FROM onboardings WHERE status = 'IN_PROCESS'"),
    expireHistory: p('DELETE FROM status_history WHERE token IN (SELECT token FROM onboardings WHERE finished_ms < ?1 OR created_ms < ?2)'),
    expireAccessKeys: p('DELETE FROM onboarding_access_keys WHERE token IN (SELECT token FROM onboardings WHERE finished_ms < ?1 OR created_ms < ?2)'),
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

    getAccessKeys: p('SELECT hash FROM onboarding_access_keys WHERE token = ? ORDER BY rowid'),
    insertAccessKey: p('INSERT OR IGNORE INTO onboarding_access_keys (token, hash) VALUES (?, ?)'),
    deleteAccessKeys: p('DELETE FROM onboarding_access_keys WHERE token = ?'),

    insertSession: p('INSERT INTO sessions (id, version, reference, status, created_ms, expires_ms, ended_ms, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
    getSession: p('SELECT version, body FROM sessions WHERE id = ?'),
    // Compare-and-set in one statement: of two writers holding the same version, the second matches no row.
    replaceSession: p(`UPDATE sessions SET version = ?1, reference = ?2, status = ?3, created_ms = ?4, expires_ms = ?5, ended_ms = ?6, body = ?7
      WHERE id = ?8 AND version = ?9`),
    sessionsByReference: p('SELECT version, body FROM sessions WHERE reference = ? ORDER BY created_ms DESC, rowid DESC LIMIT ?'),
    sessionsByStatus: p('SELECT version, body FROM sessions WHERE status = ?1 AND expires_ms < ?2 ORDER BY expires_ms, rowid LIMIT ?3'),
    // A hash already issued keeps its first owner (128 random bits: only a replayed call repeats one).
    insertSecret: p('INSERT OR IGNORE INTO session_secrets (hash, kind, session_id) VALUES (?, ?, ?)'),
    findSessionBySecret: p('SELECT s.version, s.body FROM session_secrets k JOIN sessions s ON s.id = k.session_id WHERE k.hash = ? AND k.kind = ?'),
    purgeSecrets: p('DELETE FROM session_secrets WHERE session_id IN (SELECT id FROM sessions WHERE ended_ms < ?1 OR created_ms < ?2)'),
    purgeSessions: p('DELETE FROM sessions WHERE ended_ms < ?1 OR created_ms < ?2'),
    // Taken when free, lapsed, or already this session's: one statement, so two sessions cannot both get a live key.
    putHandoffKey: p(`INSERT INTO handoff_keys (hash, session_id, live_until_ms) VALUES (?1, ?2, ?3)
      ON CONFLICT (hash) DO UPDATE SET session_id = excluded.session_id, live_until_ms = excluded.live_until_ms
      WHERE handoff_keys.session_id = excluded.session_id OR handoff_keys.live_until_ms <= ?4`),
    findHandoffKey: p('SELECT session_id FROM handoff_keys WHERE hash = ?'),
    purgeHandoffKeys: p('DELETE FROM handoff_keys WHERE session_id IN (SELECT id FROM sessions WHERE ended_ms < ?1 OR created_ms < ?2)'),

    getIdempotency: p('SELECT fingerprint, result, expires_ms FROM idempotency_keys WHERE key = ?'),
    putIdempotency: p(`INSERT INTO idempotency_keys (key, fingerprint, result, expires_ms) VALUES (?1, ?2, NULL, ?3)
      ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, result = NULL, expires_ms = excluded.expires_ms`),
    // Only a reservation has the fingerprint a replay is compared with; a first result is final.
    completeIdempotency: p('UPDATE idempotency_keys SET result = ?2, expires_ms = ?3 WHERE key = ?1 AND result IS NULL'),
    // A result, once recorded, is what a retry must get: a late release does not free it.
    releaseIdempotency: p('DELETE FROM idempotency_keys WHERE key = ? AND result IS NULL'),
    sweepIdempotency: p('DELETE FROM idempotency_keys WHERE expires_ms <= ?'),

    enqueue: p(`INSERT INTO outbox (id, type, body, order_key, created_at, created_ms, state, attempts, next_attempt_ms, last_attempt_at, last_error, delivered_at, changed_ms)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`),
    dueNotifications: p(`SELECT ${OUTBOX_COLUMNS} FROM outbox WHERE state = 'pending' AND next_attempt_ms <= ?1 ORDER BY created_ms, seq LIMIT ?2`),
    updateNotification: p(`UPDATE outbox SET state = ?1, attempts = ?2, next_attempt_ms = ?3, last_attempt_at = ?4, last_error = ?5, delivered_at = ?6,
      changed_ms = COALESCE(?7, created_ms) WHERE id = ?8`),
    getNotification: p(`SELECT ${OUTBOX_COLUMNS} FROM outbox WHERE id = ?`),
    listNotifications: p(`SELECT ${OUTBOX_COLUMNS} FROM outbox WHERE state = ?1 AND (?2 = 0 OR attempts > 0) ORDER BY created_ms DESC, seq DESC LIMIT ?3`),
    purgeOutbox: p("DELETE FROM outbox WHERE state <> 'pending' AND changed_ms < ?"),
  };
}

type Statements = ReturnType<typeof prepareStatements>;

const OUTBOX_COLUMNS = 'id, type, body, order_key, created_at, state, attempts, next_attempt_ms, last_attempt_at, last_error, delivered_at';

/** The version lives in its own column, where the compare-and-set reads it; the body holds the rest. */
function sessionBody(r: SessionRecord): string {
  const { version: _version, ...rest } = r;
  return JSON.stringify(rest);
}

function toSession(row: SessionRow | undefined): SessionRecord | null {
  return row ? { ...(JSON.parse(row.body) as Omit<SessionRecord, 'version'>), version: row.version } : null;
}

function toOutboxEntry(row: OutboxRow): OutboxEntry {
  return {
    id: row.id,
    type: row.type,
    body: row.body,
    orderKey: row.order_key,
    createdAt: row.created_at,
    state: row.state,
    attempts: row.attempts,
    nextAttemptMs: row.next_attempt_ms,
    ...(row.last_attempt_at !== null && { lastAttemptAt: row.last_attempt_at }),
    ...(row.last_error !== null && { lastError: row.last_error }),
    ...(row.delivered_at !== null && { deliveredAt: row.delivered_at }),
  };
}

/** Stores on one file in one process share their feeds, so each hears the changes another made. */
const feeds = new Map<string, { feed: ChangeFeed; sessions: SessionFeed; users: number }>();

function feedKey(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function takeFeed(key: string): { feed: ChangeFeed; sessions: SessionFeed } {
  const entry = feeds.get(key) ?? { feed: new ChangeFeed(), sessions: new SessionFeed(), users: 0 };
  entry.users++;
  feeds.set(key, entry);
  return entry;
}

function dropFeed(key: string): void {
  const entry = feeds.get(key);
  if (entry && --entry.users <= 0) feeds.delete(key);
}
