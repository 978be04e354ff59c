/**
 * The SQLite backend's primitives (../core/primitives.ts). A read-decide-write runs in an
 * IMMEDIATE transaction, which takes the write lock before reading, so two writers (even in two
 * processes) each decide on the state the other left; the rules of ../rules/ decide.
 */
import type { SessionStatus } from '@onboarding-kit/contract';
import type {
  IdempotencyState,
  OutboxEntry,
  OutboxState,
  OutboxUpdate,
  SessionQuery,
  SessionRecord,
  SessionSecretKind,
} from '../backend-state.js';
import { StoreUnavailableError } from '../errors.js';
import { completeKey, releaseFrees, reserveKey } from '../rules/idempotency.js';
import type { AttestedEntry } from '../rules/attested-hashes.js';
import { msOf } from '../rules/iso-time.js';
import { acquireLease, releaseLease, renewLease } from '../rules/leases.js';
import type { OnboardingCutoffs } from '../rules/onboardings.js';
import {
  endQuery,
  rescheduled,
  withoutOutcome,
  type QueryCutoffs,
  type StoredQueryEnd,
  type StoredQueryRequest,
} from '../rules/query-requests.js';
import { leavePlace, takePlace } from '../rules/places.js';
import { consumeRate } from '../rules/rate-window.js';
import { mayPointHandoffKey, versionMatches, type PurgeCutoffs, type SecretOwner } from '../rules/sessions.js';
import { applyStatusRules } from '../rules/status.js';
import type { StorePrimitives } from '../core/primitives.js';
import type { Clock, OnboardingRecord, RateLimitDecision, StatusUpdate } from '../store.js';
import type { Feeds } from './file-feeds.js';
import { toStoreError } from './open.js';
import {
  putLease,
  putPlaces,
  readHandoffKey,
  readHeldKey,
  readLease,
  readPlaces,
  readOnboarding,
  readQuery,
  sessionBody,
  toOutboxEntry,
  toSession,
  type OutboxRow,
  type QueryRow,
  type SessionRow,
} from './rows.js';
import type { Db, Statements } from './statements.js';
import { attestRow, insertOutboxRow, purgeRows, insertQueryRow, replaceQueryRow, updateOutboxRow, writeOnboarding } from './writes.js';
import { ListingStatements, listingQuery } from './session-listing.js';

const endedMs = (s: SessionRecord): number | null => (s.endedAt ? msOf(s.endedAt) : null);

export class SqlitePrimitives implements StorePrimitives {
  readonly feed: Feeds['feed'];
  readonly sessionFeed: Feeds['sessionFeed'];
  private readonly dropFeeds: () => void;
  private closed = false;
  private nextSweep = 0;
  private readonly listings: ListingStatements;

  constructor(
    private readonly db: Db,
    private readonly sql: Statements,
    feeds: Feeds & { drop(): void },
    private readonly now: Clock,
  ) {
    this.feed = feeds.feed;
    this.sessionFeed = feeds.sessionFeed;
    this.dropFeeds = feeds.drop;
    this.listings = new ListingStatements(db);
  }

  async putOnboarding(r: OnboardingRecord): Promise<void> {
    this.tx(() => writeOnboarding(this.sql, r));
  }

  async getOnboarding(token: string): Promise<OnboardingRecord | null> {
    // One read transaction, so the record and its history come from the same commit.
    return this.run(() => this.db.transaction(() => readOnboarding(this.sql, token)).deferred());
  }

  async applyStatus(token: string, update: StatusUpdate, at: string): Promise<{ record: OnboardingRecord; changed: boolean } | null> {
    return this.tx(() => {
      const current = readOnboarding(this.sql, token);
      if (!current) return null;
      const { record: r, changed, touched } = applyStatusRules(current, update, at);
      if (changed) {
        this.sql.updateStatus.run(
          r.status,
          r.updatedAt,
          r.externalId ?? null,
          r.finishedAt ?? null,
          r.finishedAt ? msOf(r.finishedAt) : null,
          token,
        );
        const last = r.history[r.history.length - 1]!;
        this.sql.insertHistory.run(token, r.history.length - 1, last.status, last.at, last.source);
      } else if (touched) {
        this.sql.updateExternalId.run(r.externalId ?? null, token);
      }
      return { record: r, changed };
    });
  }

  async addAccessKey(token: string, hash: string): Promise<boolean> {
    return this.tx(() => {
      if (!this.sql.getOnboarding.get(token)) return false;
      this.sql.insertAccessKey.run(token, hash);
      return true;
    });
  }

  async listInProcess(): Promise<string[]> {
    return this.run(() => (this.sql.inProcess.all() as Array<{ token: string }>).map((r) => r.token));
  }

  async expireOnboardings({ finishedBeforeMs: f, createdBeforeMs: c }: OnboardingCutoffs): Promise<number> {
    return this.tx(() => {
      this.sql.expireHistory.run(f, c);
      this.sql.expireAccessKeys.run(f, c);
      return this.sql.expireOnboardings.run(f, c).changes;
    });
  }

  async acquireLease(name: string, owner: string, ttlMs: number): Promise<boolean> {
    const t = this.now();
    return this.tx(() => putLease(this.sql, name, acquireLease(readLease(this.sql, name), owner, ttlMs, t)));
  }

  async renewLeases(names: string[], owner: string, ttlMs: number): Promise<string[]> {
    const t = this.now();
    // One transaction, so one commit and one fsync for them all: with synchronous = FULL each
    // statement on its own would pay its fsync on the event loop, thousands of them every period.
    return this.tx(() => names.filter((name) => putLease(this.sql, name, renewLease(readLease(this.sql, name), owner, ttlMs, t))));
  }

  async releaseLease(name: string, owner: string): Promise<boolean> {
    const t = this.now();
    return this.tx(() => releaseLease(readLease(this.sql, name), owner, t) && this.sql.deleteLease.run(name).changes === 1);
  }

  async consumeRate(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    const t = this.now();
    return this.tx(() => {
      if (t >= this.nextSweep) {
        // Forget ended windows, lapsed leases and idempotency keys, so the tables stay as small as the set of recent clients.
        this.sql.sweepWindows.run(t);
        this.sql.sweepLeases.run(t);
        this.sql.sweepPlaces.run(t);
        this.sql.sweepIdempotency.run(t);
        this.nextSweep = t + windowMs;
      }
      const row = this.sql.getWindow.get(key) as { count: number; reset_ms: number } | undefined;
      const { decision, write } = consumeRate(row && { count: row.count, resetAtMs: row.reset_ms }, limit, windowMs, t);
      if (write) this.sql.putWindow.run(key, write.count, write.resetAtMs);
      return decision;
    });
  }

  async takePlace(key: string, holder: string, limit: number, ttlMs: number): Promise<boolean> {
    return this.tx(() => putPlaces(this.sql, key, takePlace(readPlaces(this.sql, key), holder, limit, ttlMs, this.now())));
  }

  async leavePlace(key: string, holder: string): Promise<boolean> {
    return this.tx(() => {
      const { left, places } = leavePlace(readPlaces(this.sql, key), holder, this.now());
      return putPlaces(this.sql, key, places) && left;
    });
  }

  async insertSession(r: SessionRecord, secrets: { client: string; capture: string }): Promise<boolean> {
    return this.tx(() => {
      if (
        this.sql.insertSession.run(r.id, r.version, r.reference, r.status, msOf(r.createdAt), msOf(r.expiresAt), endedMs(r), sessionBody(r))
          .changes === 0
      )
        return false;
      this.sql.insertSecret.run(secrets.client, 'client', r.id);
      this.sql.insertSecret.run(secrets.capture, 'capture', r.id);
      return true;
    });
  }

  async getSession(id: string): Promise<SessionRecord | null> {
    return this.run(() => toSession(this.sql.getSession.get(id) as SessionRow | undefined));
  }

  async secretOwner(hash: string): Promise<SecretOwner | undefined> {
    const row = this.run(() => this.sql.getSecret.get(hash) as { kind: SessionSecretKind; session_id: string } | undefined);
    return row && { kind: row.kind, sessionId: row.session_id };
  }

  async addSessionSecret(id: string, kind: SessionSecretKind, hash: string): Promise<boolean> {
    return this.tx(() => {
      if (!this.sql.getSession.get(id)) return false;
      this.sql.insertSecret.run(hash, kind, id);
      return true;
    });
  }

  async replaceSession(r: SessionRecord, expectedVersion: number): Promise<boolean> {
    return this.tx(() => {
      if (!versionMatches(this.sql.getSession.get(r.id) as SessionRow | undefined, expectedVersion)) return false;
      this.sql.replaceSession.run(r.version, r.reference, r.status, msOf(r.createdAt), msOf(r.expiresAt), endedMs(r), sessionBody(r), r.id);
      return true;
    });
  }

  async putHandoffKey(hash: string, sessionId: string, liveUntilMs: number): Promise<boolean> {
    const t = this.now();
    return this.tx(() => {
      if (!this.sql.getSession.get(sessionId) || !mayPointHandoffKey(readHandoffKey(this.sql, hash), sessionId, t)) return false;
      this.sql.putHandoffKey.run(hash, sessionId, liveUntilMs);
      return true;
    });
  }

  async findHandoffSession(hash: string): Promise<SessionRecord | null> {
    return this.run(() => toSession(this.sql.getHandoffSession.get(hash) as SessionRow | undefined));
  }

  async sessionsByReference(reference: string, limit: number): Promise<SessionRecord[]> {
    return this.run(() => (this.sql.sessionsByReference.all(reference, limit) as SessionRow[]).map((row) => toSession(row)!));
  }

  async sessionsByStatus(status: SessionStatus, limit: number, expiresBeforeMs: number | undefined): Promise<SessionRecord[]> {
    return this.run(() =>
      (this.sql.sessionsByStatus.all(status, expiresBeforeMs ?? Number.MAX_SAFE_INTEGER, limit) as SessionRow[]).map(
        (row) => toSession(row)!,
      ),
    );
  }

  async sessionsPage(q: SessionQuery): Promise<SessionRecord[]> {
    const { shape, sql, params } = listingQuery(q);
    return this.run(() => (this.listings.statement(shape, sql).all(...params) as SessionRow[]).map((row) => toSession(row)!));
  }

  async revokeSessionAccess(id: string): Promise<void> {
    this.tx(() => {
      this.sql.revokeSecrets.run(id);
      this.sql.revokeHandoffKeys.run(id);
    });
  }

  async reserveKey(key: string, fingerprint: string, reservationTtlMs: number): Promise<IdempotencyState> {
    const t = this.now();
    return this.tx(() => {
      const { answer, write } = reserveKey(readHeldKey(this.sql, key), fingerprint, reservationTtlMs, t);
      if (write) this.sql.putIdempotency.run(key, write.fingerprint, null, write.expiresAtMs);
      return answer;
    });
  }

  async attestHashes(entries: readonly AttestedEntry[], keepMs: number): Promise<(string | null)[]> {
    const t = this.now();
    return this.tx(() => entries.map((entry) => attestRow(this.sql, entry, keepMs, t)));
  }

  async completeKey(key: string, result: string, ttlMs: number): Promise<void> {
    const t = this.now();
    this.tx(() => {
      const done = completeKey(readHeldKey(this.sql, key), result, ttlMs, t);
      if (done) this.sql.putIdempotency.run(key, done.fingerprint, done.result, done.expiresAtMs);
    });
  }

  async releaseKey(key: string): Promise<void> {
    this.tx(() => {
      if (releaseFrees(readHeldKey(this.sql, key))) this.sql.deleteIdempotency.run(key);
    });
  }

  async insertEntry(e: OutboxEntry): Promise<boolean> {
    return this.run(() => insertOutboxRow(this.sql, e));
  }

  async dueEntries(nowMs: number, limit: number): Promise<OutboxEntry[]> {
    return this.run(() => (this.sql.dueNotifications.all(nowMs, limit) as OutboxRow[]).map(toOutboxEntry));
  }

  async updateEntry(id: string, u: OutboxUpdate): Promise<boolean> {
    return this.run(() => updateOutboxRow(this.sql, id, u));
  }

  async getEntry(id: string): Promise<OutboxEntry | null> {
    const row = this.run(() => this.sql.getNotification.get(id) as OutboxRow | undefined);
    return row ? toOutboxEntry(row) : null;
  }

  async rewriteEntryBody(id: string, body: string): Promise<boolean> {
    return this.run(() => this.sql.rewriteNotificationBody.run(body, id).changes === 1);
  }

  async listEntries(state: OutboxState, failingOnly: boolean, limit: number): Promise<OutboxEntry[]> {
    return this.run(() => (this.sql.listNotifications.all(state, failingOnly ? 1 : 0, limit) as OutboxRow[]).map(toOutboxEntry));
  }

  async purge(cutoffs: PurgeCutoffs): Promise<number> {
    const t = this.now();
    const { purged, hashes } = this.tx(() => purgeRows(this.sql, cutoffs, t));
    if (purged + hashes > 0) this.truncateWal();
    return purged;
  }

  async insertQuery(r: StoredQueryRequest): Promise<boolean> {
    return this.run(() => insertQueryRow(this.sql, r));
  }

  async getQuery(id: string): Promise<StoredQueryRequest | null> {
    return this.run(() => readQuery(this.sql.getQuery.get(id) as QueryRow | undefined));
  }

  async queryByKey(key: string): Promise<StoredQueryRequest | null> {
    return this.run(() => readQuery(this.sql.queryByKey.get(key) as QueryRow | undefined));
  }

  async endQuery(id: string, end: StoredQueryEnd): Promise<boolean> {
    return this.writeQuery(id, (r) => endQuery(r, end));
  }

  async rescheduleQuery(id: string, nextCheckMs: number, checks: number): Promise<boolean> {
    return this.writeQuery(id, (r) => rescheduled(r, nextCheckMs, checks));
  }

  async dueQueries(nowMs: number, limit: number): Promise<StoredQueryRequest[]> {
    return this.run(() => (this.sql.dueQueries.all(nowMs, limit) as QueryRow[]).map((row) => readQuery(row)!));
  }

  async purgeQueries({ outcomesCompletedBeforeMs, createdBeforeMs }: QueryCutoffs, at: string): Promise<number> {
    const touched = this.tx(() => {
      const deleted = this.sql.deleteQueries.run(createdBeforeMs).changes;
      const erasable = (this.sql.erasableQueries.all(outcomesCompletedBeforeMs) as QueryRow[]).map((row) => readQuery(row)!);
      for (const r of erasable) replaceQueryRow(this.sql, withoutOutcome(r, at));
      return deleted + erasable.length;
    });
    if (touched > 0) this.truncateWal();
    return touched;
  }

  private writeQuery(id: string, decide: (r: StoredQueryRequest) => StoredQueryRequest | null): boolean {
    return this.tx(() => {
      const current = readQuery(this.sql.getQuery.get(id) as QueryRow | undefined);
      const next = current ? decide(current) : null;
      if (next) replaceQueryRow(this.sql, next);
      return next !== null;
    });
  }

  async compact(): Promise<void> {
    this.run(() => this.truncateWal());
  }

  /**
   * What a purge deleted stays in the WAL's earlier frames until they are overwritten: copy the
   * WAL into the file (where secure_delete has zeroed the freed content) and empty it. Best effort:
   * a reader holding an old snapshot lets the checkpoint stop short, and the next purge tries again.
   */
  private truncateWal(): void {
    try {
      this.db.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // The purge itself is committed; a checkpoint that could not run now is retried after the next one.
    }
  }

  async ping(): Promise<void> {
    this.run(() => this.sql.ping.get());
  }

  async close(): Promise<void> {
    this.closed = true;
    this.dropFeeds();
    this.db.close();
  }

  /** `fn` against the database, closed or unreachable turned into StoreUnavailableError. */
  run<T>(fn: () => T): T {
    if (this.closed) throw new StoreUnavailableError('The SQLite store is closed.');
    try {
      return fn();
    } catch (e) {
      throw toStoreError(e);
    }
  }

  private tx<T>(fn: () => T): T {
    return this.run(() => this.db.transaction(fn).immediate());
  }
}
