/**
 * State in process memory: for unit tests and `ONBOARDING_STORE=memory`. It dies with the process
 * and is not shared, so it suits one instance that may forget everything on restart.
 */
import type { SessionStatus } from '@onboarding-kit/contract';
import { applyOutboxUpdate, copySession, outboxChangedMs } from './backend-rules.js';
import type {
  BackendPurgeCutoffs, BackendState, IdempotencyState, OutboxEntry, OutboxState, OutboxUpdate, SessionChangeListener, SessionRecord, SessionSecretKind,
} from './backend-state.js';
import { ChangeFeed, copyRecord } from './change-feed.js';
import { SessionFeed } from './session-feed.js';
import { msOf } from './iso-time.js';
import { applyStatusRules } from './status-rules.js';
import type { ApplyResult, ChangeListener, Clock, OnboardingRecord, RateLimitDecision, StatusUpdate, Store } from './store.js';

export interface MemoryStoreOptions {
  /** The clock of leases, rate windows and default status times (default `Date.now`). */
  now?: Clock;
}

interface Lease {
  owner: string;
  expiresAt: number;
}

interface RateWindow {
  count: number;
  resetAt: number;
}

interface IdempotencyEntry {
  fingerprint: string;
  /** Set once the holder completed; until then the key is pending. */
  result?: string;
  expiresAt: number;
}

interface QueuedEntry {
  entry: OutboxEntry;
  /** Insertion order, which breaks ties of `createdAt`. */
  seq: number;
}

export class MemoryStore implements Store, BackendState {
  private readonly records = new Map<string, OnboardingRecord>();
  private readonly feed = new ChangeFeed();
  private readonly leases = new Map<string, Lease>();
  private readonly windows = new Map<string, RateWindow>();
  private readonly sessions = new Map<string, SessionRecord>();
  private readonly secrets = new Map<string, { kind: SessionSecretKind; sessionId: string }>();
  private readonly idempotency = new Map<string, IdempotencyEntry>();
  private readonly sessionFeed = new SessionFeed();
  private readonly handoffKeys = new Map<string, { sessionId: string; liveUntilMs: number }>();
  private readonly outbox = new Map<string, QueuedEntry>();
  private outboxSeq = 0;
  private readonly now: Clock;
  private nextSweep = 0;

  constructor(options: MemoryStoreOptions = {}) {
    this.now = options.now ?? Date.now;
  }

  async create(input: Parameters<Store['create']>[0]): Promise<OnboardingRecord> {
    const record: OnboardingRecord = {
      ...input,
      updatedAt: input.createdAt,
      history: input.history ?? [{ status: input.status, at: input.createdAt, source: 'creation' }],
    };
    this.records.set(record.tokenOnboarding, copyRecord(record));
    return copyRecord(record);
  }

  async get(token: string): Promise<OnboardingRecord | null> {
    const r = this.records.get(token);
    return r ? copyRecord(r) : null;
  }

  async applyStatus(token: string, update: StatusUpdate): Promise<ApplyResult | null> {
    const current = this.records.get(token);
    if (!current) return null;
    const outcome = applyStatusRules(current, update, update.at ?? new Date(this.now()).toISOString());
    if (outcome.touched) this.records.set(token, outcome.record);
    if (outcome.changed) this.feed.emit(outcome.record);
    return { record: copyRecord(outcome.record), changed: outcome.changed };
  }

  subscribe(token: string, listener: ChangeListener): () => void {
    return this.feed.subscribe(token, listener);
  }

  async listInProcess(): Promise<string[]> {
    return [...this.records.values()].filter((r) => r.status === 'IN_PROCESS').map((r) => r.tokenOnboarding);
  }

  async expire({ finishedBefore, createdBefore }: { finishedBefore: Date; createdBefore: Date }): Promise<number> {
    let n = 0;
    for (const [token, r] of this.records) {
      const finished = r.finishedAt !== undefined && Date.parse(r.finishedAt) < finishedBefore.getTime();
      if (finished || Date.parse(r.createdAt) < createdBefore.getTime()) {
        this.records.delete(token);
        n++;
      }
    }
    return n;
  }

  async acquireLease(name: string, owner: string, ttlMs: number): Promise<boolean> {
    const t = this.now();
    const lease = this.leases.get(name);
    if (lease && lease.expiresAt > t && lease.owner !== owner) return false;
    this.leases.set(name, { owner, expiresAt: t + ttlMs });
    return true;
  }

  async renewLease(name: string, owner: string, ttlMs: number): Promise<boolean> {
    return this.renew(name, owner, ttlMs, this.now());
  }

  async renewLeases(names: string[], owner: string, ttlMs: number): Promise<string[]> {
    const t = this.now();
    return [...new Set(names)].filter((name) => this.renew(name, owner, ttlMs, t));
  }

  async releaseLease(name: string, owner: string): Promise<boolean> {
    const lease = this.leases.get(name);
    if (!lease || lease.owner !== owner || lease.expiresAt <= this.now()) return false;
    this.leases.delete(name);
    return true;
  }

  async consumeRateLimit(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    const t = this.now();
    this.sweep(t, windowMs);
    let w = this.windows.get(key);
    if (!w || w.resetAt <= t) w = { count: 0, resetAt: t + windowMs };
    const allowed = w.count < limit;
    if (allowed) {
      w.count++;
      this.windows.set(key, w);
    }
    return { allowed, count: w.count, retryAfterMs: w.resetAt - t };
  }

  async createSession(record: SessionRecord, secrets: { client: string; capture: string }): Promise<void> {
    if (this.sessions.has(record.id)) throw new Error(`Session ${record.id} exists already.`);
    this.sessions.set(record.id, copySession({ ...record, version: 1 }));
    this.addSecret(record.id, 'client', secrets.client);
    this.addSecret(record.id, 'capture', secrets.capture);
  }

  async getSession(id: string): Promise<SessionRecord | null> {
    const s = this.sessions.get(id);
    return s ? copySession(s) : null;
  }

  async findSessionBySecret(kind: SessionSecretKind, secretHash: string): Promise<SessionRecord | null> {
    const owner = this.secrets.get(secretHash);
    return owner && owner.kind === kind ? this.getSession(owner.sessionId) : null;
  }

  async addSessionSecret(id: string, kind: SessionSecretKind, secretHash: string): Promise<boolean> {
    if (!this.sessions.has(id)) return false;
    this.addSecret(id, kind, secretHash);
    return true;
  }

  async replaceSession(next: SessionRecord, expectedVersion: number): Promise<boolean> {
    const current = this.sessions.get(next.id);
    if (!current || current.version !== expectedVersion) return false;
    this.sessions.set(next.id, copySession({ ...next, version: expectedVersion + 1 }));
    this.sessionFeed.emit(next.id);
    return true;
  }

  subscribeSession(id: string, listener: SessionChangeListener): () => void {
    return this.sessionFeed.subscribe(id, listener);
  }

  async putHandoffKey(hash: string, sessionId: string, liveUntilMs: number): Promise<boolean> {
    if (!this.sessions.has(sessionId)) return false;
    const held = this.handoffKeys.get(hash);
    if (held && held.sessionId !== sessionId && held.liveUntilMs > this.now()) return false;
    this.handoffKeys.set(hash, { sessionId, liveUntilMs });
    return true;
  }

  async findHandoffKey(hash: string): Promise<string | null> {
    const held = this.handoffKeys.get(hash);
    return held && this.sessions.has(held.sessionId) ? held.sessionId : null;
  }

  async listSessionsByReference(reference: string, limit: number): Promise<SessionRecord[]> {
    // Newest insertion first before the stable sort, so sessions created in the same millisecond list newest first too.
    const mine = [...this.sessions.values()].filter((s) => s.reference === reference).reverse();
    return mine.sort((x, y) => msOf(y.createdAt) - msOf(x.createdAt)).slice(0, Math.max(0, limit)).map(copySession);
  }

  async listSessionsByStatus(status: SessionStatus, { limit, expiresBefore }: { limit: number; expiresBefore?: Date }): Promise<SessionRecord[]> {
    const cutoff = expiresBefore?.getTime() ?? Infinity;
    return [...this.sessions.values()]
      .filter((s) => s.status === status && msOf(s.expiresAt) < cutoff)
      .sort((x, y) => msOf(x.expiresAt) - msOf(y.expiresAt))
      .slice(0, Math.max(0, limit))
      .map(copySession);
  }

  async reserveIdempotencyKey(key: string, fingerprint: string, { ttlMs, pendingTtlMs }: { ttlMs: number; pendingTtlMs: number }): Promise<IdempotencyState> {
    const t = this.now();
    const held = this.idempotency.get(key);
    if (held && held.expiresAt > t) {
      return held.result === undefined ? { state: 'pending', fingerprint: held.fingerprint } : { state: 'done', fingerprint: held.fingerprint, result: held.result };
    }
    this.idempotency.set(key, { fingerprint, expiresAt: t + Math.min(ttlMs, pendingTtlMs) });
    return { state: 'reserved' };
  }

  async completeIdempotencyKey(key: string, result: string, ttlMs: number): Promise<void> {
    const held = this.idempotency.get(key);
    // Only a reservation has the fingerprint a replay is compared with; a first result is final.
    if (held && held.result === undefined) this.idempotency.set(key, { fingerprint: held.fingerprint, result, expiresAt: this.now() + ttlMs });
  }

  async releaseIdempotencyKey(key: string): Promise<void> {
    // A result, once recorded, is what a retry must get: a late release does not free it.
    if (this.idempotency.get(key)?.result === undefined) this.idempotency.delete(key);
  }

  async addAccessKey(token: string, accessKeyHash: string): Promise<boolean> {
    const r = this.records.get(token);
    if (!r) return false;
    // A Set, not a comparison: hashes are compared only through the constant-time helpers, and a repeat adds nothing.
    this.records.set(token, { ...r, moreAccessKeyHashes: [...new Set([...(r.moreAccessKeyHashes ?? []), accessKeyHash])] });
    return true;
  }

  async enqueueNotification(entry: OutboxEntry): Promise<boolean> {
    if (this.outbox.has(entry.id)) return false;
    this.outbox.set(entry.id, { entry: applyOutboxUpdate(entry, entry), seq: ++this.outboxSeq });
    return true;
  }

  async dueNotifications(nowMs: number, limit: number): Promise<OutboxEntry[]> {
    return [...this.outbox.values()]
      .filter(({ entry }) => entry.state === 'pending' && entry.nextAttemptMs <= nowMs)
      .sort((x, y) => msOf(x.entry.createdAt) - msOf(y.entry.createdAt) || x.seq - y.seq)
      .slice(0, Math.max(0, limit))
      .map(({ entry }) => ({ ...entry }));
  }

  async updateNotification(id: string, update: OutboxUpdate): Promise<boolean> {
    const queued = this.outbox.get(id);
    if (!queued) return false;
    queued.entry = applyOutboxUpdate(queued.entry, update);
    return true;
  }

  async getNotification(id: string): Promise<OutboxEntry | null> {
    const queued = this.outbox.get(id);
    return queued ? { ...queued.entry } : null;
  }

  async listNotifications({ state, failingOnly, limit }: { state: OutboxState; failingOnly?: boolean; limit: number }): Promise<OutboxEntry[]> {
    return [...this.outbox.values()]
      .filter(({ entry }) => entry.state === state && (!failingOnly || entry.attempts > 0))
      .sort((x, y) => msOf(y.entry.createdAt) - msOf(x.entry.createdAt) || y.seq - x.seq)
      .slice(0, Math.max(0, limit))
      .map(({ entry }) => ({ ...entry }));
  }

  async purgeBackendState({ sessionsEndedBefore, sessionsCreatedBefore, outboxBefore }: BackendPurgeCutoffs): Promise<number> {
    const gone = new Set<string>();
    for (const [id, s] of this.sessions) {
      const ended = s.endedAt !== undefined && msOf(s.endedAt) < sessionsEndedBefore.getTime();
      if (ended || msOf(s.createdAt) < sessionsCreatedBefore.getTime()) gone.add(id);
    }
    for (const id of gone) this.sessions.delete(id);
    if (gone.size > 0) for (const [hash, owner] of this.secrets) if (gone.has(owner.sessionId)) this.secrets.delete(hash);
    if (gone.size > 0) for (const [hash, key] of this.handoffKeys) if (gone.has(key.sessionId)) this.handoffKeys.delete(hash);
    let settled = 0;
    for (const [id, { entry }] of this.outbox) {
      if (entry.state !== 'pending' && outboxChangedMs(entry) < outboxBefore.getTime()) {
        this.outbox.delete(id);
        settled++;
      }
    }
    // Lapsed idempotency keys are free already; dropping them only keeps the map small, so they are not counted.
    const t = this.now();
    for (const [key, held] of this.idempotency) if (held.expiresAt <= t) this.idempotency.delete(key);
    return gone.size + settled;
  }

  async ping(): Promise<void> {}

  /** How many onboardings are held (for tests and health checks). */
  get size(): number {
    return this.records.size;
  }

  /** A hash already issued keeps its first owner (128 random bits: only a replayed call repeats one). */
  private addSecret(sessionId: string, kind: SessionSecretKind, hash: string): void {
    if (!this.secrets.has(hash)) this.secrets.set(hash, { kind, sessionId });
  }

  private renew(name: string, owner: string, ttlMs: number, t: number): boolean {
    const lease = this.leases.get(name);
    if (!lease || lease.owner !== owner || lease.expiresAt <= t) return false;
    lease.expiresAt = t + ttlMs;
    return true;
  }

  /** Forgets ended windows, lapsed leases and idempotency keys, so the maps stay as small as the set of recent clients. */
  private sweep(t: number, windowMs: number): void {
    if (t < this.nextSweep) return;
    for (const [k, w] of this.windows) if (w.resetAt <= t) this.windows.delete(k);
    for (const [k, l] of this.leases) if (l.expiresAt <= t) this.leases.delete(k);
    for (const [k, held] of this.idempotency) if (held.expiresAt <= t) this.idempotency.delete(k);
    this.nextSweep = t + windowMs;
  }
}
