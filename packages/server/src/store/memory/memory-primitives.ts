/** The memory backend's primitives (../core/primitives.ts): maps, each operation decided by the rules in one synchronous step. */
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
import { copyRecord, copySession } from '../rules/copies.js';
import { completeKey, releaseFrees, reserveKey, type HeldKey } from '../rules/idempotency.js';
import { attestHash, attestedLapsed, type AttestedEntry, type AttestedHash } from '../rules/attested-hashes.js';
import { acquireLease, releaseLease, renewLease, type Lease } from '../rules/leases.js';
import { onboardingExpired, withAccessKey, type OnboardingCutoffs } from '../rules/onboardings.js';
import { applyOutboxUpdate, isDue, listed, outboxSettledBefore, queueOrder, type Queued } from '../rules/outbox.js';
import {
  copyQuery,
  endQuery,
  outcomeErased,
  queryDeleted,
  queryDue,
  rescheduled,
  soonestCheckFirst,
  withoutOutcome,
  type QueryCutoffs,
  type StoredQueryEnd,
  type StoredQueryRequest,
} from '../rules/query-requests.js';
import { leavePlace, livePlaces, takePlace, type Place } from '../rules/places.js';
import { consumeRate, type RateWindow } from '../rules/rate-window.js';
import { msOf } from '../rules/iso-time.js';
import {
  mayPointHandoffKey,
  newestFirst,
  sessionPurged,
  soonestExpiryFirst,
  type HandoffKey,
  type PurgeCutoffs,
  type SecretOwner,
} from '../rules/sessions.js';
import { applyStatusRules } from '../rules/status.js';
import { pageOf } from '../rules/session-list.js';
import { ChangeFeed } from '../core/change-feed.js';
import type { StorePrimitives } from '../core/primitives.js';
import { SessionFeed } from '../core/session-feed.js';
import type { Clock, OnboardingRecord, RateLimitDecision, StatusUpdate } from '../store.js';

export class MemoryPrimitives implements StorePrimitives {
  readonly feed = new ChangeFeed();
  readonly sessionFeed = new SessionFeed();
  readonly records = new Map<string, OnboardingRecord>();
  private readonly leases = new Map<string, Lease>();
  private readonly windows = new Map<string, RateWindow>();
  private readonly places = new Map<string, Place[]>();
  /** Sessions with their insertion number, which breaks ties of the list orders. */
  private readonly sessions = new Map<string, { s: SessionRecord; seq: number }>();
  private readonly secrets = new Map<string, SecretOwner>();
  private readonly idempotency = new Map<string, HeldKey>();
  private readonly attested = new Map<string, AttestedHash>();
  private readonly handoffKeys = new Map<string, HandoffKey>();
  private readonly outbox = new Map<string, Queued>();
  private readonly queries = new Map<string, { r: StoredQueryRequest; seq: number }>();
  private readonly queryKeys = new Map<string, string>();
  private seq = 0;
  private nextSweep = 0;

  constructor(private readonly now: Clock) {}

  /** Every map, as held, in JSON. */
  snapshot(): string {
    const all = { records: this.records, leases: this.leases, windows: this.windows, sessions: this.sessions, secrets: this.secrets };
    const more = {
      idempotency: this.idempotency,
      places: this.places,
      handoffKeys: this.handoffKeys,
      outbox: this.outbox,
      queries: this.queries,
      queryKeys: this.queryKeys,
      attested: this.attested,
    };
    return JSON.stringify({ ...all, ...more }, (_key, value: unknown) => (value instanceof Map ? Object.fromEntries(value) : value));
  }

  async putOnboarding(record: OnboardingRecord): Promise<void> {
    this.records.set(record.tokenOnboarding, copyRecord(record));
  }

  async getOnboarding(token: string): Promise<OnboardingRecord | null> {
    const r = this.records.get(token);
    return r ? copyRecord(r) : null;
  }

  async applyStatus(token: string, update: StatusUpdate, at: string): Promise<{ record: OnboardingRecord; changed: boolean } | null> {
    const current = this.records.get(token);
    if (!current) return null;
    const outcome = applyStatusRules(current, update, at);
    if (outcome.touched) this.records.set(token, outcome.record);
    return { record: copyRecord(outcome.record), changed: outcome.changed };
  }

  async addAccessKey(token: string, hash: string): Promise<boolean> {
    const r = this.records.get(token);
    if (r) this.records.set(token, withAccessKey(r, hash));
    return r !== undefined;
  }

  async listInProcess(): Promise<string[]> {
    return [...this.records.values()].filter((r) => r.status === 'IN_PROCESS').map((r) => r.tokenOnboarding);
  }

  async expireOnboardings(cutoffs: OnboardingCutoffs): Promise<number> {
    return deleteWhere(this.records, (r) => onboardingExpired(r, cutoffs)).length;
  }

  async acquireLease(name: string, owner: string, ttlMs: number): Promise<boolean> {
    return this.setIf(this.leases, name, acquireLease(this.leases.get(name), owner, ttlMs, this.now()));
  }

  async renewLeases(names: string[], owner: string, ttlMs: number): Promise<string[]> {
    const t = this.now();
    return names.filter((name) => this.setIf(this.leases, name, renewLease(this.leases.get(name), owner, ttlMs, t)));
  }

  async releaseLease(name: string, owner: string): Promise<boolean> {
    return releaseLease(this.leases.get(name), owner, this.now()) && this.leases.delete(name);
  }

  async consumeRate(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    const t = this.now();
    this.sweep(t, windowMs);
    const { decision, write } = consumeRate(this.windows.get(key), limit, windowMs, t);
    if (write) this.windows.set(key, write);
    return decision;
  }

  async takePlace(key: string, holder: string, limit: number, ttlMs: number): Promise<boolean> {
    const places = takePlace(this.places.get(key) ?? [], holder, limit, ttlMs, this.now());
    if (places) this.places.set(key, places);
    return places !== null;
  }

  async leavePlace(key: string, holder: string): Promise<boolean> {
    const { left, places } = leavePlace(this.places.get(key) ?? [], holder, this.now());
    if (places.length > 0) this.places.set(key, places);
    else this.places.delete(key);
    return left;
  }

  async insertSession(record: SessionRecord, secrets: { client: string; capture: string }): Promise<boolean> {
    if (this.sessions.has(record.id)) return false;
    this.sessions.set(record.id, { s: record, seq: ++this.seq });
    this.addSecret(record.id, 'client', secrets.client);
    this.addSecret(record.id, 'capture', secrets.capture);
    return true;
  }

  async getSession(id: string): Promise<SessionRecord | null> {
    const held = this.sessions.get(id);
    return held ? copySession(held.s) : null;
  }

  async secretOwner(hash: string): Promise<SecretOwner | undefined> {
    return this.secrets.get(hash);
  }

  async addSessionSecret(id: string, kind: SessionSecretKind, hash: string): Promise<boolean> {
    if (this.sessions.has(id)) this.addSecret(id, kind, hash);
    return this.sessions.has(id);
  }

  async replaceSession(next: SessionRecord, expectedVersion: number): Promise<boolean> {
    const held = this.sessions.get(next.id);
    if (held?.s.version !== expectedVersion) return false;
    held.s = next;
    return true;
  }

  async putHandoffKey(hash: string, sessionId: string, liveUntilMs: number): Promise<boolean> {
    if (!this.sessions.has(sessionId) || !mayPointHandoffKey(this.handoffKeys.get(hash), sessionId, this.now())) return false;
    this.handoffKeys.set(hash, { sessionId, liveUntilMs });
    return true;
  }

  async findHandoffSession(hash: string): Promise<SessionRecord | null> {
    const held = this.sessions.get(this.handoffKeys.get(hash)?.sessionId ?? '');
    return held ? copySession(held.s) : null;
  }

  async sessionsByReference(reference: string, limit: number): Promise<SessionRecord[]> {
    return this.sessionsWhere((s) => s.reference === reference, newestFirst, limit);
  }

  async sessionsByStatus(status: SessionStatus, limit: number, expiresBeforeMs: number | undefined): Promise<SessionRecord[]> {
    const cutoff = expiresBeforeMs ?? Infinity;
    return this.sessionsWhere((s) => s.status === status && msOf(s.expiresAt) < cutoff, soonestExpiryFirst, limit);
  }

  async sessionsPage(query: SessionQuery): Promise<SessionRecord[]> {
    return pageOf(
      [...this.sessions.values()].map(({ s }) => s),
      query,
    ).map(copySession);
  }

  async revokeSessionAccess(id: string): Promise<void> {
    deleteWhere(this.secrets, (owner) => owner.sessionId === id);
    deleteWhere(this.handoffKeys, (key) => key.sessionId === id);
  }

  async reserveKey(key: string, fingerprint: string, reservationTtlMs: number): Promise<IdempotencyState> {
    const { answer, write } = reserveKey(this.idempotency.get(key), fingerprint, reservationTtlMs, this.now());
    if (write) this.idempotency.set(key, write);
    return answer;
  }

  async attestHashes(entries: readonly AttestedEntry[], keepMs: number): Promise<(string | null)[]> {
    const t = this.now();
    return entries.map(({ sha256, nonce }) => {
      const { earlier, write } = attestHash(this.attested.get(sha256), nonce, keepMs, t);
      if (write) this.attested.set(sha256, write);
      return earlier;
    });
  }

  async completeKey(key: string, result: string, ttlMs: number): Promise<void> {
    this.setIf(this.idempotency, key, completeKey(this.idempotency.get(key), result, ttlMs, this.now()) ?? null);
  }

  async releaseKey(key: string): Promise<void> {
    if (releaseFrees(this.idempotency.get(key))) this.idempotency.delete(key);
  }

  async insertEntry(entry: OutboxEntry): Promise<boolean> {
    if (this.outbox.has(entry.id)) return false;
    this.outbox.set(entry.id, { entry, seq: ++this.seq });
    return true;
  }

  async dueEntries(nowMs: number, limit: number): Promise<OutboxEntry[]> {
    return this.entriesWhere((e) => isDue(e, nowMs), queueOrder, limit);
  }

  async updateEntry(id: string, update: OutboxUpdate): Promise<boolean> {
    const queued = this.outbox.get(id);
    if (queued) queued.entry = applyOutboxUpdate(queued.entry, update);
    return queued !== undefined;
  }

  async getEntry(id: string): Promise<OutboxEntry | null> {
    const queued = this.outbox.get(id);
    return queued ? { ...queued.entry } : null;
  }

  async rewriteEntryBody(id: string, body: string): Promise<boolean> {
    const queued = this.outbox.get(id);
    if (queued) queued.entry = { ...queued.entry, body };
    return queued !== undefined;
  }

  async listEntries(state: OutboxState, failingOnly: boolean, limit: number): Promise<OutboxEntry[]> {
    return this.entriesWhere(
      (e) => listed(e, state, failingOnly),
      (x, y) => queueOrder(y, x),
      limit,
    );
  }

  async purge(cutoffs: PurgeCutoffs): Promise<number> {
    const gone = new Set(deleteWhere(this.sessions, ({ s }) => sessionPurged(s, cutoffs)));
    deleteWhere(this.secrets, (owner) => gone.has(owner.sessionId));
    deleteWhere(this.handoffKeys, (key) => gone.has(key.sessionId));
    const settled = deleteWhere(this.outbox, ({ entry }) => outboxSettledBefore(entry, cutoffs.outboxBeforeMs));
    // Lapsed idempotency keys are free already; dropping them only keeps the map small, so they are not counted.
    const t = this.now();
    deleteWhere(this.idempotency, (held) => held.expiresAtMs <= t);
    deleteWhere(this.attested, (held) => attestedLapsed(held, t));
    return gone.size + settled.length;
  }

  async insertQuery(record: StoredQueryRequest): Promise<boolean> {
    if (this.queries.has(record.id)) return false;
    this.queries.set(record.id, { r: copyQuery(record), seq: ++this.seq });
    if (record.key !== undefined) this.queryKeys.set(record.key, record.id);
    return true;
  }

  async getQuery(id: string): Promise<StoredQueryRequest | null> {
    const held = this.queries.get(id);
    return held ? copyQuery(held.r) : null;
  }

  async queryByKey(key: string): Promise<StoredQueryRequest | null> {
    const id = this.queryKeys.get(key);
    return id === undefined ? null : this.getQuery(id);
  }

  async endQuery(id: string, end: StoredQueryEnd): Promise<boolean> {
    return this.writeQuery(id, (r) => endQuery(r, end));
  }

  async rescheduleQuery(id: string, nextCheckMs: number, checks: number): Promise<boolean> {
    return this.writeQuery(id, (r) => rescheduled(r, nextCheckMs, checks));
  }

  async dueQueries(nowMs: number, limit: number): Promise<StoredQueryRequest[]> {
    return [...this.queries.values()]
      .filter(({ r }) => queryDue(r, nowMs))
      .sort(soonestCheckFirst)
      .slice(0, limit)
      .map(({ r }) => copyQuery(r));
  }

  async purgeQueries(cutoffs: QueryCutoffs, at: string): Promise<number> {
    const deleted = deleteWhere(this.queries, ({ r }) => queryDeleted(r, cutoffs));
    deleteWhere(this.queryKeys, (id) => !this.queries.has(id));
    let erased = 0;
    for (const held of this.queries.values()) {
      if (!outcomeErased(held.r, cutoffs)) continue;
      held.r = withoutOutcome(held.r, at);
      erased++;
    }
    return deleted.length + erased;
  }

  async ping(): Promise<void> {}

  private writeQuery(id: string, decide: (r: StoredQueryRequest) => StoredQueryRequest | null): boolean {
    const held = this.queries.get(id);
    const next = held ? decide(held.r) : null;
    if (held && next) held.r = copyQuery(next);
    return next !== null;
  }

  /** A hash already issued keeps its first owner. */
  private addSecret(sessionId: string, kind: SessionSecretKind, hash: string): void {
    if (!this.secrets.has(hash)) this.secrets.set(hash, { kind, sessionId });
  }

  private setIf<V>(map: Map<string, V>, key: string, value: V | null): boolean {
    if (value !== null) map.set(key, value);
    return value !== null;
  }

  private sessionsWhere(
    keep: (s: SessionRecord) => boolean,
    order: (x: { s: SessionRecord; seq: number }, y: { s: SessionRecord; seq: number }) => number,
    limit: number,
  ): SessionRecord[] {
    return [...this.sessions.values()]
      .filter(({ s }) => keep(s))
      .sort(order)
      .slice(0, limit)
      .map(({ s }) => copySession(s));
  }

  private entriesWhere(keep: (e: OutboxEntry) => boolean, order: (x: Queued, y: Queued) => number, limit: number): OutboxEntry[] {
    return [...this.outbox.values()]
      .filter(({ entry }) => keep(entry))
      .sort(order)
      .slice(0, limit)
      .map(({ entry }) => ({ ...entry }));
  }

  /** Forgets ended windows, lapsed leases and idempotency keys, so the maps stay as small as the set of recent clients. */
  private sweep(t: number, windowMs: number): void {
    if (t < this.nextSweep) return;
    deleteWhere(this.windows, (w) => w.resetAtMs <= t);
    deleteWhere(this.leases, (l) => l.expiresAtMs <= t);
    deleteWhere(this.places, (held) => livePlaces(held, t).length === 0);
    deleteWhere(this.idempotency, (held) => held.expiresAtMs <= t);
    this.nextSweep = t + windowMs;
  }
}

/** Deletes the entries `gone` picks; returns their keys. */
function deleteWhere<V>(map: Map<string, V>, gone: (value: V) => boolean): string[] {
  const keys = [...map].filter(([, v]) => gone(v)).map(([k]) => k);
  for (const k of keys) map.delete(k);
  return keys;
}
