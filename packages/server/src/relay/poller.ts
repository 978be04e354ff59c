/**
 * Polling fallback (docs/page-api.md#polling): webhooks are never resent automatically
 * (docs/upstream-api.md, rule 7). Every onboarding still IN_PROCESS is polled with
 * `GET /api/onboarding/report/{token}`: first poll soon after creation, then every `intervalMs`
 * during the fast phase, then backing off, and never beyond `maxDurationMs` in total. A terminal
 * status from anywhere (webhook or poll) ends the polling.
 */
import { isTerminalStatus, type OnboardingReport } from '@onboarding-kit/contract';
import type { Logger } from '../logger.js';
import type { Store } from '../store/store.js';

export interface PollTimings {
  /** Delay before the first poll (default 2 s). */
  firstDelayMs: number;
  /** Interval during the fast phase (default 5 s). */
  intervalMs: number;
  /** How long the fast phase lasts from creation (default 60 s). */
  fastPhaseMs: number;
  /** Longest interval once backing off (default 60 s). */
  maxIntervalMs: number;
  /** Total time after which polling gives up (default 30 min). */
  maxDurationMs: number;
}

export const DEFAULT_POLL_TIMINGS: PollTimings = {
  firstDelayMs: 2_000,
  intervalMs: 5_000,
  fastPhaseMs: 60_000,
  maxIntervalMs: 60_000,
  maxDurationMs: 30 * 60_000,
};

export interface PollerDeps {
  store: Store;
  report: (tokenOnboarding: string) => Promise<OnboardingReport>;
  logger: Logger;
  timings?: Partial<PollTimings>;
}

interface Tracked {
  startedAt: number;
  delay: number;
  timer?: ReturnType<typeof setTimeout>;
  unsubscribe: () => void;
}

export class StatusPoller {
  private readonly tracked = new Map<string, Tracked>();
  private readonly timings: PollTimings;
  private closed = false;

  constructor(private readonly deps: PollerDeps) {
    this.timings = { ...DEFAULT_POLL_TIMINGS, ...deps.timings };
  }

  /** Starts polling one onboarding (no-op when already tracked). */
  track(token: string): void {
    if (this.closed || this.tracked.has(token)) return;
    const entry: Tracked = {
      startedAt: Date.now(),
      delay: this.timings.firstDelayMs,
      unsubscribe: this.deps.store.subscribe(token, (r) => {
        if (isTerminalStatus(r.status)) this.stop(token);
      }),
    };
    this.tracked.set(token, entry);
    this.schedule(token, entry, this.timings.firstDelayMs);
  }

  stop(token: string): void {
    const entry = this.tracked.get(token);
    if (!entry) return;
    clearTimeout(entry.timer);
    entry.unsubscribe();
    this.tracked.delete(token);
  }

  /** How many onboardings are being polled. */
  get size(): number {
    return this.tracked.size;
  }

  close(): void {
    this.closed = true;
    for (const token of [...this.tracked.keys()]) this.stop(token);
  }

  private schedule(token: string, entry: Tracked, delay: number): void {
    const elapsed = Date.now() - entry.startedAt;
    if (elapsed + delay > this.timings.maxDurationMs) {
      this.deps.logger.warn('polling gave up: no outcome within the polling window', { tokenOnboarding: token, elapsedMs: elapsed });
      this.stop(token);
      return;
    }
    entry.timer = setTimeout(() => void this.poll(token, entry), delay);
    entry.timer.unref?.();
  }

  private async poll(token: string, entry: Tracked): Promise<void> {
    if (this.tracked.get(token) !== entry) return;
    try {
      const current = await this.deps.store.get(token);
      if (!current || isTerminalStatus(current.status)) return this.stop(token);
      const { status, externalId } = await this.deps.report(token);
      if (status !== current.status) await this.deps.store.applyStatus(token, { status, source: 'poll', ...(externalId && { externalId }) });
      if (isTerminalStatus(status)) return this.stop(token);
    } catch (e) {
      this.deps.logger.warn('poll failed; will retry', { tokenOnboarding: token, error: e });
    }
    if (this.tracked.get(token) !== entry) return;
    const elapsed = Date.now() - entry.startedAt;
    entry.delay = elapsed < this.timings.fastPhaseMs ? this.timings.intervalMs : Math.min(entry.delay * 2, this.timings.maxIntervalMs);
    this.schedule(token, entry, entry.delay);
  }
}
