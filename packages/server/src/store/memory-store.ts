/**
 * State in process memory: for unit tests and `ONBOARDING_STORE=memory`. It dies with the process
 * and is not shared, so it suits one instance that may forget everything on restart.
 */
import { ChangeFeed, copyRecord } from './change-feed.js';
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

export class MemoryStore implements Store {
  private readonly records = new Map<string, OnboardingRecord>();
  private readonly feed = new ChangeFeed();
  private readonly leases = new Map<string, Lease>();
  private readonly windows = new Map<string, RateWindow>();
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

  async ping(): Promise<void> {}

  /** How many onboardings are held (for tests and health checks). */
  get size(): number {
    return this.records.size;
  }

  private renew(name: string, owner: string, ttlMs: number, t: number): boolean {
    const lease = this.leases.get(name);
    if (!lease || lease.owner !== owner || lease.expiresAt <= t) return false;
    lease.expiresAt = t + ttlMs;
    return true;
  }

  /** Forgets ended windows and lapsed leases, so the maps stay as small as the set of recent clients. */
  private sweep(t: number, windowMs: number): void {
    if (t < this.nextSweep) return;
    for (const [k, w] of this.windows) if (w.resetAt <= t) this.windows.delete(k);
    for (const [k, l] of this.leases) if (l.expiresAt <= t) this.leases.delete(k);
    this.nextSweep = t + windowMs;
  }
}
