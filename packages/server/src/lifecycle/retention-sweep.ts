/**
 * Retention: personal data is not kept longer than needed. Every `intervalMs` the store deletes
 * the onboardings finished more than `retentionMs` ago and those created more than `maxAgeMs` ago
 * (docs/page-api.md#limits-and-configuration). The next sweep is scheduled when one ends, so a
 * slow store never has two sweeps running at once. Its clock and timers are injected: tests move
 * time forward instead of waiting for it.
 */
import type { Logger } from '../logger.js';
import type { Store } from '../store/index.js';

/** The clock and timers the sweep needs (the companion's injected timers have this shape). */
export interface SweepTimers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Real time; a pending sweep never keeps the process alive on its own. */
const realSweepTimers: SweepTimers = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return t;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface RetentionSweepOptions {
  store: Pick<Store, 'expire'>;
  retentionMs: number;
  maxAgeMs: number;
  logger: Logger;
  /** Default: a quarter of `retentionMs`, from 1 s to 1 min. */
  intervalMs?: number;
  timers?: SweepTimers;
}

/** A quarter of the retention window, so a record outlives it by at most a quarter; 1 s to 1 min. */
export function sweepInterval(retentionMs: number): number {
  return Math.min(60_000, Math.max(1_000, retentionMs / 4));
}

export class RetentionSweep {
  private readonly timers: SweepTimers;
  private readonly intervalMs: number;
  private timer: unknown;
  private closed = false;

  constructor(private readonly options: RetentionSweepOptions) {
    this.timers = options.timers ?? realSweepTimers;
    this.intervalMs = options.intervalMs ?? sweepInterval(options.retentionMs);
    this.schedule();
  }

  /** Deletes what is past its time now; resolves with how many onboardings went (0 when the store failed). */
  async sweep(): Promise<number> {
    const now = this.timers.now();
    try {
      const count = await this.options.store.expire({
        finishedBefore: new Date(now - this.options.retentionMs),
        createdBefore: new Date(now - this.options.maxAgeMs),
      });
      if (count) this.options.logger.info('expired onboardings deleted', { count });
      return count;
    } catch (error) {
      this.options.logger.warn('retention sweep failed', { error });
      return 0;
    }
  }

  /** No more sweeps. */
  close(): void {
    this.closed = true;
    this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.closed) return;
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      void this.sweep().finally(() => this.schedule());
    }, this.intervalMs);
  }
}
