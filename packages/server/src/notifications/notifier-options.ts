/** The notifier's options and their defaults, resolved once per notifier. */
import type { Logger } from '../logger.js';
import type { Timers } from '../relay/timers.js';
import type { BackendState } from '../store/backend-state.js';
import type { Store } from '../store/index.js';
import { HOUR_MS, NOTIFY_GIVE_UP_MS } from '../config/defaults.js';

export interface NotifierRetry {
  /** Wait after the first failed try (default 1 s); each later wait doubles. */
  firstDelayMs?: number;
  /** Longest wait between two tries (default 1 h). */
  maxDelayMs?: number;
  /**
   * How long the schedule keeps trying before the entry becomes `failed` (default 3 days): it gives
   * up after the failed try whose scheduled waits so far add up to this. Counted in tries, not
   * from `createdAt`, so a replayed entry gets a whole new schedule.
   */
  giveUpAfterMs?: number;
}

export interface NotifierOptions {
  store: Pick<Store, 'acquireLease' | 'renewLease' | 'releaseLease'> &
    Pick<BackendState, 'enqueueNotification' | 'dueNotifications' | 'updateNotification' | 'getNotification' | 'listNotifications'>;
  /** The integrator's endpoint (`ONBOARDING_NOTIFY_URL`). */
  url: string;
  /** `ONBOARDING_NOTIFY_SECRET`; several during a rotation, each adding a `v1` signature. */
  secret: string | readonly string[];
  logger: Logger;
  /** The companion's `environment`, written on every event (docs/backend-api.md#notifications). */
  environment: 'test' | 'production';
  /** One try's limit, connection to last byte of the answer's head (default 10 s). */
  timeoutMs?: number;
  /** Tries under way at once, across all order keys (default 4). */
  concurrency?: number;
  retry?: NotifierRetry;
  /**
   * How often the delivering instance looks for entries it was not told about (queued by other
   * instances, or due retries it already knows the time of) (default 2 s).
   */
  scanIntervalMs?: number;
  /** Pending entries, oldest first, weighed per look (default 1000): order per key is kept within this window. */
  scanLimit?: number;
  /** The `outbox` lease's TTL (default 30 s); renewed every third of it, and retaken as often by the others. */
  leaseTtlMs?: number;
  /** This instance's name on the lease (default a random one). */
  owner?: string;
  timers?: Timers;
  /** Default `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** Default true; false to queue only (a process that must never send). */
  deliver?: boolean;
}

const DEFAULTS = {
  timeoutMs: 10_000,
  concurrency: 4,
  firstDelayMs: 1_000,
  maxDelayMs: HOUR_MS,
  giveUpAfterMs: NOTIFY_GIVE_UP_MS,
  scanIntervalMs: 2_000,
  scanLimit: 1_000,
  leaseTtlMs: 30_000,
} as const;

export type NotifierConfig = { -readonly [K in keyof typeof DEFAULTS]: number };

export function notifierConfig(options: NotifierOptions): NotifierConfig {
  const r = options.retry ?? {};
  return {
    timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
    concurrency: Math.max(1, options.concurrency ?? DEFAULTS.concurrency),
    firstDelayMs: r.firstDelayMs ?? DEFAULTS.firstDelayMs,
    maxDelayMs: r.maxDelayMs ?? DEFAULTS.maxDelayMs,
    giveUpAfterMs: r.giveUpAfterMs ?? DEFAULTS.giveUpAfterMs,
    scanIntervalMs: options.scanIntervalMs ?? DEFAULTS.scanIntervalMs,
    scanLimit: options.scanLimit ?? DEFAULTS.scanLimit,
    leaseTtlMs: options.leaseTtlMs ?? DEFAULTS.leaseTtlMs,
  };
}
