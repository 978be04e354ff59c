/**
 * `Store` and `BackendState` written once, on top of a backend's primitives (./primitives.ts):
 * every store is a `SharedStore` given its own primitives, as better-auth's adapters share one
 * factory. What does not depend on where the data lives is here: shaping records, default times,
 * limits, versions, telling listeners, sealing personal data (../rules/personal-data.ts), and
 * closing: backends only ever hold the sealed form.
 */
import type { AttestedEntry } from '../rules/attested-hashes.js';
import type { SessionStatus } from '@onboarding-kit/contract';
import type {
  BackendPurgeCutoffs,
  BackendState,
  IdempotencyState,
  OutboxEntry,
  OutboxState,
  OutboxUpdate,
  QueryPurgeCutoffs,
  QueryRequestEnd,
  QueryRequestRecord,
  SessionChangeListener,
  SessionQuery,
  SessionRecord,
  SessionSecretKind,
} from '../backend-state.js';
import { copyRecord } from '../rules/copies.js';
import {
  joinSession,
  outboxBinding,
  queryBinding,
  sealedEntry,
  sealedSession,
  sessionBinding,
  splitSession,
  type SessionPersonalData,
} from '../rules/personal-data.js';
import { reservationTtlMs } from '../rules/idempotency.js';
import { distinctNames } from '../rules/leases.js';
import { newOnboarding, onboardingCutoffs, type NewOnboarding } from '../rules/onboardings.js';
import { applyOutboxUpdate, outboxTry } from '../rules/outbox.js';
import { queryCutoffs, type StoredQueryRequest } from '../rules/query-requests.js';
import { atMost, atVersion, purgeCutoffs, secretOpens } from '../rules/sessions.js';
import type { ApplyResult, ChangeListener, Clock, OnboardingRecord, RateLimitDecision, StatusUpdate, Store } from '../store.js';
import { DataSealer } from './data-sealer.js';
import type { StorePrimitives } from './primitives.js';

export class SharedStore implements Store, BackendState {
  private readonly subscriptions = new Set<() => void>();
  private closed = false;

  constructor(
    private readonly p: StorePrimitives,
    /** Stamps status times when an update brings none. */
    protected readonly now: Clock,
    /** Seals personal data before the backend sees it (default: no key, stored as given). */
    private readonly sealer: DataSealer = new DataSealer(),
  ) {}

  /** Whether personal data is encrypted at rest (a data key was given). */
  get sealsPersonalData(): boolean {
    return this.sealer.sealing;
  }

  async create(input: NewOnboarding): Promise<OnboardingRecord> {
    const record = newOnboarding(input);
    await this.p.putOnboarding(record);
    // A token created anew starts a new history: what its listeners were given no longer counts.
    this.p.feed.forget(record.tokenOnboarding);
    return copyRecord(record);
  }

  get(token: string): Promise<OnboardingRecord | null> {
    return this.p.getOnboarding(token);
  }

  async applyStatus(token: string, update: StatusUpdate): Promise<ApplyResult | null> {
    const outcome = await this.p.applyStatus(token, update, update.at ?? new Date(this.now()).toISOString());
    if (!outcome) return null;
    // Listeners here hear at once; a shared backend skips its own change when its channel brings it back.
    if (outcome.changed) this.p.feed.emitIfNewer(outcome.record);
    return { record: outcome.record, changed: outcome.changed };
  }

  subscribe(token: string, listener: ChangeListener): () => void {
    return this.track(this.p.feed.subscribe(token, listener));
  }

  listInProcess(): Promise<string[]> {
    return this.p.listInProcess();
  }

  expire(cutoffs: { finishedBefore: Date; createdBefore: Date }): Promise<number> {
    return this.p.expireOnboardings(onboardingCutoffs(cutoffs));
  }

  acquireLease(name: string, owner: string, ttlMs: number): Promise<boolean> {
    return this.p.acquireLease(name, owner, ttlMs);
  }

  async renewLease(name: string, owner: string, ttlMs: number): Promise<boolean> {
    return (await this.p.renewLeases([name], owner, ttlMs)).length === 1;
  }

  async renewLeases(names: string[], owner: string, ttlMs: number): Promise<string[]> {
    const distinct = distinctNames(names);
    return distinct.length === 0 ? [] : this.p.renewLeases(distinct, owner, ttlMs);
  }

  releaseLease(name: string, owner: string): Promise<boolean> {
    return this.p.releaseLease(name, owner);
  }

  consumeRateLimit(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    return this.p.consumeRate(key, limit, windowMs);
  }

  takePlace(key: string, holder: string, limit: number, ttlMs: number): Promise<boolean> {
    return this.p.takePlace(key, holder, limit, ttlMs);
  }

  leavePlace(key: string, holder: string): Promise<boolean> {
    return this.p.leavePlace(key, holder);
  }

  async createSession(record: SessionRecord, secrets: { client: string; capture: string }): Promise<void> {
    if (!(await this.p.insertSession(await this.sealSession(atVersion(record, 1)), secrets)))
      throw new Error(`Session ${record.id} exists already.`);
  }

  async getSession(id: string): Promise<SessionRecord | null> {
    return this.openSession(await this.p.getSession(id));
  }

  async findSessionBySecret(kind: SessionSecretKind, secretHash: string): Promise<SessionRecord | null> {
    const id = secretOpens(await this.p.secretOwner(secretHash), kind);
    return id === null ? null : this.getSession(id);
  }

  addSessionSecret(id: string, kind: SessionSecretKind, secretHash: string): Promise<boolean> {
    return this.p.addSessionSecret(id, kind, secretHash);
  }

  async replaceSession(next: SessionRecord, expectedVersion: number): Promise<boolean> {
    const written = await this.p.replaceSession(await this.sealSession(atVersion(next, expectedVersion + 1)), expectedVersion);
    if (written) this.p.sessionFeed.emit(next.id);
    return written;
  }

  subscribeSession(id: string, listener: SessionChangeListener): () => void {
    return this.track(this.p.sessionFeed.subscribe(id, listener));
  }

  putHandoffKey(hash: string, sessionId: string, liveUntilMs: number): Promise<boolean> {
    return this.p.putHandoffKey(hash, sessionId, liveUntilMs);
  }

  findHandoffSession(hash: string): Promise<SessionRecord | null> {
    return this.p.findHandoffSession(hash);
  }

  async listSessionsByReference(reference: string, limit: number): Promise<SessionRecord[]> {
    return atMost(limit) === 0 ? [] : this.openAll(await this.p.sessionsByReference(reference, limit));
  }

  async listSessionsByStatus(
    status: SessionStatus,
    { limit, expiresBefore }: { limit: number; expiresBefore?: Date },
  ): Promise<SessionRecord[]> {
    return atMost(limit) === 0 ? [] : this.openAll(await this.p.sessionsByStatus(status, limit, expiresBefore?.getTime()));
  }

  async listSessions(query: SessionQuery): Promise<SessionRecord[]> {
    return atMost(query.limit) === 0 ? [] : this.openAll(await this.p.sessionsPage(query));
  }

  async revokeSessionAccess(id: string): Promise<void> {
    await this.p.revokeSessionAccess(id);
    await this.p.compact?.();
  }

  async redactNotification(id: string, redact: (entry: OutboxEntry) => string): Promise<boolean> {
    const stored = await this.p.getEntry(id);
    if (!stored) return false;
    const body = await this.sealer.seal(redact(await this.openEntry(stored)), outboxBinding(id));
    return this.p.rewriteEntryBody(id, body);
  }

  async redactOnboarding(token: string, redact: (record: OnboardingRecord) => OnboardingRecord): Promise<boolean> {
    const record = await this.p.getOnboarding(token);
    if (!record) return false;
    await this.p.putOnboarding(redact(record));
    return true;
  }

  reserveIdempotencyKey(key: string, fingerprint: string, ttls: { ttlMs: number; pendingTtlMs: number }): Promise<IdempotencyState> {
    return this.p.reserveKey(key, fingerprint, reservationTtlMs(ttls));
  }

  attestHashes(entries: readonly AttestedEntry[], keepMs: number): Promise<(string | null)[]> {
    return entries.length === 0 ? Promise.resolve([]) : this.p.attestHashes(entries, keepMs);
  }

  completeIdempotencyKey(key: string, result: string, ttlMs: number): Promise<void> {
    return this.p.completeKey(key, result, ttlMs);
  }

  releaseIdempotencyKey(key: string): Promise<void> {
    return this.p.releaseKey(key);
  }

  addAccessKey(tokenOnboarding: string, accessKeyHash: string): Promise<boolean> {
    return this.p.addAccessKey(tokenOnboarding, accessKeyHash);
  }

  async enqueueNotification(entry: OutboxEntry): Promise<boolean> {
    const body = await this.sealer.seal(entry.body, outboxBinding(entry.id));
    return this.p.insertEntry(sealedEntry(applyOutboxUpdate(entry, entry), body));
  }

  async dueNotifications(nowMs: number, limit: number): Promise<OutboxEntry[]> {
    return atMost(limit) === 0 ? [] : this.openEntries(await this.p.dueEntries(nowMs, limit));
  }

  updateNotification(id: string, update: OutboxUpdate): Promise<boolean> {
    return this.p.updateEntry(id, outboxTry(update));
  }

  async getNotification(id: string): Promise<OutboxEntry | null> {
    const entry = await this.p.getEntry(id);
    return entry && this.openEntry(entry);
  }

  async listNotifications({
    state,
    failingOnly,
    limit,
  }: {
    state: OutboxState;
    failingOnly?: boolean;
    limit: number;
  }): Promise<OutboxEntry[]> {
    return atMost(limit) === 0 ? [] : this.openEntries(await this.p.listEntries(state, failingOnly === true, limit));
  }

  purgeBackendState(cutoffs: BackendPurgeCutoffs): Promise<number> {
    return this.p.purge(purgeCutoffs(cutoffs));
  }

  async insertQueryRequest(record: QueryRequestRecord): Promise<boolean> {
    const { outcome, ...rest } = record;
    const stored: StoredQueryRequest =
      outcome === undefined ? rest : { ...rest, outcome: await this.sealer.seal(JSON.stringify(outcome), queryBinding(record.id)) };
    return this.p.insertQuery(stored);
  }

  async getQueryRequest(id: string): Promise<QueryRequestRecord | null> {
    return this.openQuery(await this.p.getQuery(id));
  }

  async findQueryRequestByKey(key: string): Promise<QueryRequestRecord | null> {
    return this.openQuery(await this.p.queryByKey(key));
  }

  async finishQueryRequest(id: string, end: QueryRequestEnd): Promise<boolean> {
    const { outcome, ...rest } = end;
    return this.p.endQuery(
      id,
      outcome === undefined ? rest : { ...rest, outcome: await this.sealer.seal(JSON.stringify(outcome), queryBinding(id)) },
    );
  }

  rescheduleQueryRequest(id: string, nextCheckMs: number, checks: number): Promise<boolean> {
    return this.p.rescheduleQuery(id, nextCheckMs, checks);
  }

  async dueQueryRequests(nowMs: number, limit: number): Promise<QueryRequestRecord[]> {
    if (atMost(limit) === 0) return [];
    const due = await this.p.dueQueries(nowMs, limit);
    return Promise.all(due.map(async (r) => (await this.openQuery(r))!));
  }

  purgeQueryRequests(cutoffs: QueryPurgeCutoffs): Promise<number> {
    return this.p.purgeQueries(queryCutoffs(cutoffs), new Date(this.now()).toISOString());
  }

  ping(): Promise<void> {
    return this.p.ping();
  }

  /** Ends listeners and the backend, once; stores that hold resources expose it as `close` (the memory store holds none and has no `close`). */
  protected async shutdown(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const off of [...this.subscriptions]) off();
    await this.p.close?.();
  }

  private async sealSession(s: SessionRecord): Promise<SessionRecord> {
    if (!this.sealer.sealing) return s;
    const { rest, personal } = splitSession(s);
    return personal ? sealedSession(rest, await this.sealer.seal(JSON.stringify(personal), sessionBinding(s.id))) : rest;
  }

  private async openSession(s: SessionRecord | null): Promise<SessionRecord | null> {
    if (!s?.sealed) return s;
    const personal = JSON.parse(await this.sealer.open(s.sealed, sessionBinding(s.id), `session ${s.id}`)) as SessionPersonalData;
    return joinSession(s, personal);
  }

  private async openAll(list: SessionRecord[]): Promise<SessionRecord[]> {
    return Promise.all(list.map(async (s) => (await this.openSession(s))!));
  }

  private async openEntry(entry: OutboxEntry): Promise<OutboxEntry> {
    return { ...entry, body: await this.sealer.open(entry.body, outboxBinding(entry.id), `notification ${entry.id}`) };
  }

  private openEntries(list: OutboxEntry[]): Promise<OutboxEntry[]> {
    return Promise.all(list.map((e) => this.openEntry(e)));
  }

  private async openQuery(r: StoredQueryRequest | null): Promise<QueryRequestRecord | null> {
    if (!r) return null;
    const { outcome, ...rest } = r;
    if (outcome === undefined) return rest;
    const opened = await this.sealer.open(outcome, queryBinding(r.id), `query request ${r.id}`);
    return { ...rest, outcome: JSON.parse(opened) as Record<string, unknown> };
  }

  /** Listeners end with the store: closing unsubscribes whoever is left. */
  private track(off: () => void): () => void {
    const unsubscribe = () => {
      off();
      this.subscriptions.delete(unsubscribe);
    };
    this.subscriptions.add(unsubscribe);
    return unsubscribe;
  }
}
