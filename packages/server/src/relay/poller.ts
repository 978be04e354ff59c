/**
 * Polling fallback (docs/page-api.md#polling): webhooks are never resent automatically
 * (docs/upstream-api.md, rule 7), so every onboarding still IN_PROCESS is polled with
 * `GET /api/onboarding/report/{token}`: first soon after creation, then every `intervalMs` during
 * the fast phase, then backing off up to `maxIntervalMs`, until the onboarding reaches its maximum
 * age. A manual review that takes hours still reaches the store. A terminal status from anywhere
 * (webhook or poll, this instance or another) ends the polling.
 *
 * One live instance at a time polls an onboarding: it holds the lease `poll:<token>` in the store
 * and renews it every third of `leaseMs`. An instance that dies stops renewing, its leases lapse
 * within `leaseMs`, and the others, which scan the store's in-process onboardings for unleased
 * ones as often as they renew, take its onboardings over. A restarted instance does the same, so
 * polling resumes after a restart. A closing instance gives its leases up at once.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { isTerminalStatus, type OnboardingReport, type OnboardingStatus } from '@onboarding-kit/contract';
import type { Logger } from '../logger.js';
import type { Store } from '../store/index.js';
import { realTimers, type TimerHandle, type Timers } from './timers.js';
import { COMPANION_DEFAULTS } from '../config/defaults.js';

export interface PollTimings {
  /** Delay before the first poll of a new onboarding (default 2 s). */
  firstDelayMs: number;
  /** Interval during the fast phase (default 5 s). */
  intervalMs: number;
  /** How long the fast phase lasts from creation (default 60 s). */
  fastPhaseMs: number;
  /** Longest interval once backing off (default 10 min). */
  maxIntervalMs: number;
  /** Age of an onboarding after which it is no longer polled (default: the companion's `maxAgeMs`, 48 h). */
  maxDurationMs: number;
  /** How long a polling lease outlives an instance that stopped renewing it (default 30 s, at most 30 s). */
  leaseMs: number;
}

const DEFAULT_POLL_TIMINGS: PollTimings = {
  firstDelayMs: 2_000,
  intervalMs: 5_000,
  fastPhaseMs: 60_000,
  maxIntervalMs: 10 * 60_000,
  maxDurationMs: COMPANION_DEFAULTS.maxAgeMs,
  leaseMs: COMPANION_DEFAULTS.pollLeaseMs,
};

export interface PollerDeps {
  store: Store;
  report: (tokenOnboarding: string) => Promise<OnboardingReport>;
  logger: Logger;
  timings?: Partial<PollTimings>;
  /** Scan the store for in-process onboardings nobody polls, and take them over (default true). */
  takeOver?: boolean;
  timers?: Timers;
  /** This instance's name on its leases (default: host, process id and a random suffix). */
  owner?: string;
  /** 0 <= x < 1; spreads first polls after a takeover (default Math.random). */
  random?: () => number;
}

interface Tracked {
  /** Creation time of the onboarding (ms), which drives the backoff and the maximum age. */
  createdAt: number;
  /** Last backoff interval. */
  delay: number;
  leased: boolean;
  timer?: TimerHandle;
  unsubscribe: () => void;
}

/** A scan takes leases this many at a time, so a scan of thousands does not flood the store. */
const SCAN_BATCH = 32;

export const pollLeaseName = (token: string) => `poll:${token}`;

export class StatusPoller {
  /** This instance's name on its leases. */
  readonly owner: string;
  private readonly tracked = new Map<string, Tracked>();
  /** In-process onboardings past their maximum age: not taken over again until the retention sweep deletes them. */
  private readonly tooOld = new Set<string>();
  private readonly timings: PollTimings;
  private readonly timers: Timers;
  private readonly random: () => number;
  private scanTimer: TimerHandle | undefined;
  private renewTimer: TimerHandle | undefined;
  private scanning = false;
  private closed = false;
  /** Reads asked for outside the schedule, one per onboarding at a time. */
  private readonly checking = new Map<string, Promise<OnboardingStatus | null>>();

  constructor(private readonly deps: PollerDeps) {
    this.timings = { ...DEFAULT_POLL_TIMINGS, ...deps.timings };
    if (!(this.timings.leaseMs > 0)) throw new RangeError('poll.leaseMs must be positive');
    this.timers = deps.timers ?? realTimers;
    this.random = deps.random ?? Math.random;
    this.owner = deps.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.renewTimer = this.timers.setTimeout(() => void this.renew(), this.period());
    if (deps.takeOver !== false) this.scanTimer = this.timers.setTimeout(() => void this.scan(), 0);
  }

  /** Starts polling an onboarding just created here (no-op when already polled here). */
  track(token: string): void {
    if (this.closed || this.tracked.has(token)) return;
    const entry = this.add(token, this.timers.now());
    this.deps.store.acquireLease(pollLeaseName(token), this.owner, this.timings.leaseMs).then(
      (ok) => {
        if (this.tracked.get(token) !== entry) {
          if (ok) void this.release(token);
        } else if (!ok) {
          this.forget(token);
        } else {
          entry.leased = true;
          this.schedule(token, entry, this.timings.firstDelayMs);
        }
      },
      (error: unknown) => {
        // The next scan takes it when the store answers again.
        this.deps.logger.warn('could not take the polling lease; a later scan will', { tokenOnboarding: token, error });
        if (this.tracked.get(token) === entry) this.forget(token);
      },
    );
  }

  /**
   * Reads the upstream's report of an onboarding in process at once, outside the schedule and
   * whoever holds its lease, and applies the status the upstream gives with `source` (a webhook
   * is only a hint of a change: docs/page-api.md#upstream-webhooks). Resolves to what the upstream
   * said, or null when the onboarding is unknown or decided, or the read or the store failed: the
   * schedule brings the outcome then. Never rejects. A read already under way for the token is shared.
   */
  checkNow(token: string, source: 'webhook' | 'poll'): Promise<OnboardingStatus | null> {
    if (this.closed) return Promise.resolve(null);
    const running = this.checking.get(token);
    if (running) return running;
    const check = this.readAndApply(token, source).finally(() => this.checking.delete(token));
    this.checking.set(token, check);
    return check;
  }

  private async readAndApply(token: string, source: 'webhook' | 'poll'): Promise<OnboardingStatus | null> {
    try {
      const current = await this.deps.store.get(token);
      if (!current || isTerminalStatus(current.status)) return null;
      const { status, externalId, services } = await this.deps.report(token);
      if (status !== current.status)
        await this.deps.store.applyStatus(token, {
          status,
          source,
          ...(externalId && { externalId }),
          ...(services != null && { services }),
        });
      if (isTerminalStatus(status)) this.stop(token);
      return status;
    } catch (error) {
      if (!this.closed) this.deps.logger.warn('report read failed; polling brings the outcome', { tokenOnboarding: token, error });
      return null;
    }
  }

  /** Stops polling one onboarding here and gives its lease up. */
  stop(token: string): void {
    const entry = this.tracked.get(token);
    if (!entry) return;
    this.forget(token);
    if (entry.leased) void this.release(token);
  }

  /** How many onboardings this instance polls. */
  get size(): number {
    return this.tracked.size;
  }

  /** Stops every timer and gives every lease up, so other instances take over at their next scan. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.timers.clearTimeout(this.scanTimer);
    this.timers.clearTimeout(this.renewTimer);
    const held = [...this.tracked].filter(([, e]) => e.leased).map(([token]) => token);
    for (const token of [...this.tracked.keys()]) this.forget(token);
    await Promise.all(held.map((token) => this.release(token)));
  }

  private add(token: string, createdAt: number): Tracked {
    const entry: Tracked = {
      createdAt,
      delay: this.timings.intervalMs,
      leased: false,
      unsubscribe: this.deps.store.subscribe(token, (r) => {
        if (isTerminalStatus(r.status)) this.stop(token);
      }),
    };
    this.tracked.set(token, entry);
    return entry;
  }

  private forget(token: string): void {
    const entry = this.tracked.get(token);
    if (!entry) return;
    this.timers.clearTimeout(entry.timer);
    entry.unsubscribe();
    this.tracked.delete(token);
  }

  private async release(token: string): Promise<void> {
    await this.deps.store.releaseLease(pollLeaseName(token), this.owner).catch(() => false);
  }

  /** Renewal and scan period: a third of the lease, so a lease is renewed twice before it could lapse. */
  private period(): number {
    return Math.max(1, Math.floor(this.timings.leaseMs / 3));
  }

  private schedule(token: string, entry: Tracked, delay: number): void {
    const age = this.timers.now() - entry.createdAt;
    const left = this.timings.maxDurationMs - age;
    if (left <= 0) {
      this.deps.logger.info('polling ended: the onboarding reached its maximum age', { tokenOnboarding: token, ageMs: age });
      this.tooOld.add(token);
      this.stop(token);
      return;
    }
    // The last poll falls on the maximum age itself rather than never.
    entry.timer = this.timers.setTimeout(() => void this.poll(token, entry), Math.min(delay, left));
  }

  private nextDelay(entry: Tracked): number {
    if (this.timers.now() - entry.createdAt < this.timings.fastPhaseMs) return this.timings.intervalMs;
    entry.delay = Math.min(entry.delay * 2, this.timings.maxIntervalMs);
    return entry.delay;
  }

  private async poll(token: string, entry: Tracked): Promise<void> {
    entry.timer = undefined;
    if (this.tracked.get(token) !== entry) return;
    try {
      const current = await this.deps.store.get(token);
      if (!current || isTerminalStatus(current.status)) return this.stop(token);
      const { status, externalId, services } = await this.deps.report(token);
      // Applied even if this instance lost the lease meanwhile: status updates are idempotent and monotonic.
      if (status !== current.status)
        await this.deps.store.applyStatus(token, {
          status,
          source: 'poll',
          ...(externalId && { externalId }),
          ...(services != null && { services }),
        });
      if (isTerminalStatus(status)) return this.stop(token);
    } catch (error) {
      if (!this.closed) this.deps.logger.warn('poll failed; will retry', { tokenOnboarding: token, error });
    }
    if (this.tracked.get(token) !== entry) return;
    this.schedule(token, entry, this.nextDelay(entry));
  }

  /**
   * Renews every lease held here in one store call: on SQLite one transaction (one fsync) rather
   * than one fsync per onboarding on the event loop, on Redis one round trip.
   */
  private async renew(): Promise<void> {
    const held = [...this.tracked].filter(([, e]) => e.leased);
    if (held.length && !this.closed) {
      try {
        const renewed = new Set(
          await this.deps.store.renewLeases(
            held.map(([token]) => pollLeaseName(token)),
            this.owner,
            this.timings.leaseMs,
          ),
        );
        for (const [token, entry] of held) {
          if (renewed.has(pollLeaseName(token)) || this.tracked.get(token) !== entry) continue;
          this.deps.logger.info('polling lease lapsed; another instance polls this onboarding now', { tokenOnboarding: token });
          this.forget(token);
        }
      } catch {
        // Unreachable store: keep polling (polls fail too until it is back) and try again next period.
        // A renewal that timed out may still have been applied: the next one tells which leases are still ours.
        this.deps.logger.warn('could not renew polling leases; will retry', { count: held.length });
      }
    }
    if (!this.closed) this.renewTimer = this.timers.setTimeout(() => void this.renew(), this.period());
  }

  /** Takes over in-process onboardings whose lease is free: new ones of other instances that died, and any left by a restart. */
  private async scan(): Promise<void> {
    if (this.closed || this.scanning) return;
    this.scanning = true;
    let taken = 0;
    try {
      const tokens = await this.deps.store.listInProcess();
      const live = new Set(tokens);
      for (const t of this.tooOld) if (!live.has(t)) this.tooOld.delete(t);
      const candidates = tokens.filter((t) => !this.tracked.has(t) && !this.tooOld.has(t));
      for (let i = 0; i < candidates.length && !this.closed; i += SCAN_BATCH) {
        const results = await Promise.all(candidates.slice(i, i + SCAN_BATCH).map((token) => this.takeOver(token)));
        taken += results.filter(Boolean).length;
      }
    } catch (error) {
      this.deps.logger.warn('polling scan failed; will retry', { error });
    } finally {
      this.scanning = false;
    }
    if (taken) this.deps.logger.info('polling taken over', { count: taken, owner: this.owner });
    if (!this.closed) {
      // Instances started together drift apart instead of scanning in step.
      const period = this.period();
      this.scanTimer = this.timers.setTimeout(() => void this.scan(), Math.round(period * (0.8 + 0.4 * this.random())));
    }
  }

  private async takeOver(token: string): Promise<boolean> {
    if (this.closed || this.tracked.has(token)) return false;
    if (!(await this.deps.store.acquireLease(pollLeaseName(token), this.owner, this.timings.leaseMs))) return false;
    // Created here while the lease was being taken: that entry polls it.
    if (this.tracked.has(token)) return false;
    const record = await this.deps.store.get(token);
    const createdAt = record ? Date.parse(record.createdAt) : Number.NaN;
    const young = this.timers.now() - createdAt < this.timings.maxDurationMs;
    if (this.closed || this.tracked.has(token) || !record || isTerminalStatus(record.status) || !young) {
      if (record && !isTerminalStatus(record.status) && !young) this.tooOld.add(token);
      if (!this.tracked.has(token)) await this.release(token);
      return false;
    }
    const entry = this.add(token, createdAt);
    entry.leased = true;
    // The outcome may have come while nobody polled: poll soon, spread so a takeover of many is no burst.
    this.schedule(token, entry, this.timings.firstDelayMs + Math.floor(this.random() * this.timings.intervalMs));
    return true;
  }
}
