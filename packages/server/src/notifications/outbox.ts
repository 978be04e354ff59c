/**
 * Signed notifications to the integrator's backend (docs/backend-api.md#notifications).
 *
 * `notify` stores the event in the store's outbox before anything is sent, so an event survives a
 * crash, a restart and a receiver that is down; delivery is at least once and receivers dedupe by
 * `id`. One instance at a time delivers: whoever holds the store lease `outbox`. The others only
 * queue, and keep trying to take the lease over, so a dead holder is replaced within its TTL.
 *
 * Each try POSTs the entry's stored body byte for byte, freshly signed (the timestamp is the try's,
 * so a receiver's tolerance window never rejects a late retry). Entries with the same `orderKey` go
 * one at a time, in queue order: a later one waits while an earlier one is still pending, so a
 * receiver never sees `session.completed` before that session's `session.submitted` unless the
 * earlier one gave up. Different keys do not wait for each other, and at most `concurrency` tries
 * run at once, so a receiver that hangs costs its own entries their timeouts and nothing else.
 */
import type { NotificationEvent, NotificationType } from '@onboarding-kit/contract';
import { NOTIFICATION_SIGNATURE_HEADER } from '@onboarding-kit/contract';
import type { Logger } from '../logger.js';
import { realTimers, type TimerHandle, type Timers } from '../relay/timers.js';
import type { BackendState, OutboxEntry, OutboxState } from '../store/backend-state.js';
import type { Store } from '../store/index.js';
import { KIT_VERSION } from '../version.js';
import { signNotification } from './signature.js';
import { HOUR_MS, NOTIFY_GIVE_UP_MS } from '../config/defaults.js';

export const OUTBOX_LEASE = 'outbox';

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

export interface NotifyInput<T = unknown> {
  /** A deterministic id (`evt_...`) makes a repeat of the same event queue nothing; default a random one. */
  id?: string;
  type: NotificationType;
  /** Entries with the same key are delivered in the order they were queued (a session id, a query key). */
  orderKey: string;
  data: T;
}

export interface NotifyResult {
  id: string;
  /** False when an entry with this id was already queued (nothing changed). */
  queued: boolean;
}

/** What the admin routes list: `failing` is pending after at least one failed try. */
export type NotificationFilter = 'failing' | OutboxState;
export const NOTIFICATION_FILTERS: readonly NotificationFilter[] = ['failing', 'failed', 'pending', 'delivered'];

export interface NotificationSummary {
  id: string;
  type: NotificationType;
  state: OutboxState;
  orderKey: string;
  attempts: number;
  createdAt: string;
  lastAttemptAt: string | null;
  lastError: string | null;
  /** When the next try is due (pending only). */
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  /** The event exactly as sent. */
  event: NotificationEvent;
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

const MAX_ID_LENGTH = 200;

function randomHex(bytes: number): string {
  return Array.from(globalThis.crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Why a try failed, in words that carry no body, header, URL or secret. */
function describeFailure(error: unknown, timedOut: boolean): string {
  if (timedOut) return 'timeout';
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  const code = typeof cause?.code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(cause.code) ? cause.code : undefined;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection reset';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  return code ? `network error (${code})` : 'network error';
}

export class Notifier {
  readonly owner: string;
  readonly #o: NotifierOptions;
  readonly #secrets: readonly string[];
  readonly #timers: Timers;
  readonly #fetch: typeof fetch;
  readonly #cfg: {
    timeoutMs: number;
    concurrency: number;
    firstDelayMs: number;
    maxDelayMs: number;
    giveUpAfterMs: number;
    scanIntervalMs: number;
    scanLimit: number;
    leaseTtlMs: number;
  };
  readonly #inFlight = new Map<string, { done: Promise<void>; abort: AbortController }>();
  #holding = false;
  #closed = false;
  #leaseTimer: TimerHandle | undefined;
  #scanTimer: TimerHandle | undefined;
  #scanAt = Infinity;
  #scanning = false;
  #rescan = false;
  #leaseWork: Promise<void> = Promise.resolve();

  constructor(options: NotifierOptions) {
    this.#o = options;
    this.#secrets = typeof options.secret === 'string' ? [options.secret] : [...options.secret];
    if (this.#secrets.length === 0) throw new RangeError('a notifier needs at least one secret');
    this.#timers = options.timers ?? realTimers;
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.owner = options.owner ?? `notifier-${randomHex(8)}`;
    const r = options.retry ?? {};
    this.#cfg = {
      timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
      concurrency: Math.max(1, options.concurrency ?? DEFAULTS.concurrency),
      firstDelayMs: r.firstDelayMs ?? DEFAULTS.firstDelayMs,
      maxDelayMs: r.maxDelayMs ?? DEFAULTS.maxDelayMs,
      giveUpAfterMs: r.giveUpAfterMs ?? DEFAULTS.giveUpAfterMs,
      scanIntervalMs: options.scanIntervalMs ?? DEFAULTS.scanIntervalMs,
      scanLimit: options.scanLimit ?? DEFAULTS.scanLimit,
      leaseTtlMs: options.leaseTtlMs ?? DEFAULTS.leaseTtlMs,
    };
    if (options.deliver !== false) this.#leaseTimer = this.#timers.setTimeout(() => this.#leaseStep(), 0);
  }

  /** Whether this instance holds the `outbox` lease and so delivers. */
  get delivering(): boolean {
    return this.#holding && !this.#closed;
  }

  /**
   * Queues an event and returns once it is stored (a store failure rejects: nothing was queued, or
   * the outcome is unknown and a retry with the same id is safe). Sending happens later, elsewhere.
   */
  async notify<T>(input: NotifyInput<T>): Promise<NotifyResult> {
    const id = input.id ?? `evt_${randomHex(16)}`;
    if (typeof id !== 'string' || !id || id.length > MAX_ID_LENGTH)
      throw new RangeError(`a notification id has 1 to ${MAX_ID_LENGTH} characters`);
    const nowMs = this.#timers.now();
    const createdAt = new Date(nowMs).toISOString();
    const event: NotificationEvent<T> = { id, type: input.type, createdAt, data: input.data };
    const entry: OutboxEntry = {
      id,
      type: input.type,
      body: JSON.stringify(event),
      orderKey: input.orderKey,
      createdAt,
      state: 'pending',
      attempts: 0,
      nextAttemptMs: nowMs,
    };
    const queued = await this.#o.store.enqueueNotification(entry);
    if (queued) this.wake();
    else this.#o.logger.debug('notification already queued', { id, type: input.type });
    return { id, queued };
  }

  /** Looks for due entries now (after a local `notify` or a replay); a no-op unless this instance delivers. */
  wake(): void {
    this.#scheduleScan(0);
  }

  async list(filter: NotificationFilter, limit: number): Promise<NotificationSummary[]> {
    const entries = await this.#o.store.listNotifications(
      filter === 'failing' ? { state: 'pending', failingOnly: true, limit } : { state: filter, limit },
    );
    return entries.map(summarize);
  }

  /**
   * Sends an entry again, whatever its state: pending now, with a fresh retry schedule (attempts
   * back to 0; the last error and try time stay until the next try). Null for an unknown id.
   */
  async replay(id: string): Promise<NotificationSummary | null> {
    const entry = await this.#o.store.getNotification(id);
    if (!entry) return null;
    const nowMs = this.#timers.now();
    const update = {
      state: 'pending' as const,
      attempts: 0,
      nextAttemptMs: nowMs,
      ...(entry.lastAttemptAt && { lastAttemptAt: entry.lastAttemptAt }),
      ...(entry.lastError && { lastError: entry.lastError }),
    };
    if (!(await this.#o.store.updateNotification(id, update))) return null;
    this.#o.logger.info('notification replay queued', { id, type: entry.type, previousState: entry.state });
    this.wake();
    const { deliveredAt: _gone, ...kept } = entry;
    return summarize({ ...kept, ...update });
  }

  /** Stops delivering: tries under way are abandoned (their entries stay pending, for the next holder), then the lease is given up. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#timers.clearTimeout(this.#leaseTimer);
    this.#timers.clearTimeout(this.#scanTimer);
    this.#leaseTimer = this.#scanTimer = undefined;
    for (const { abort } of this.#inFlight.values()) abort.abort();
    await Promise.allSettled([...this.#inFlight.values()].map((f) => f.done));
    await this.#leaseWork.catch(() => undefined);
    if (this.#holding) {
      this.#holding = false;
      try {
        await this.#o.store.releaseLease(OUTBOX_LEASE, this.owner);
      } catch (error) {
        // It lapses on its own within its TTL.
        this.#o.logger.warn('notification lease not released', { error });
      }
    }
  }

  #leaseStep(): void {
    this.#leaseTimer = undefined;
    if (this.#closed) return;
    this.#leaseWork = this.#leaseOnce().finally(() => {
      if (!this.#closed)
        this.#leaseTimer = this.#timers.setTimeout(() => this.#leaseStep(), Math.max(1, Math.floor(this.#cfg.leaseTtlMs / 3)));
    });
  }

  async #leaseOnce(): Promise<void> {
    const { store, logger } = this.#o;
    const ttl = this.#cfg.leaseTtlMs;
    let held: boolean;
    try {
      held = this.#holding
        ? await store.renewLease(OUTBOX_LEASE, this.owner, ttl)
        : await store.acquireLease(OUTBOX_LEASE, this.owner, ttl);
    } catch (error) {
      // Unknown whether it still holds: it stops, so two instances never both send for long; retaking it is the same call.
      held = false;
      logger.warn('notification lease check failed', { error });
    }
    if (this.#closed) return;
    if (held && !this.#holding) {
      this.#holding = true;
      logger.info('notification delivery started on this instance', { owner: this.owner });
      this.#scheduleScan(0);
    } else if (!held && this.#holding) {
      this.#holding = false;
      this.#timers.clearTimeout(this.#scanTimer);
      this.#scanTimer = undefined;
      this.#scanAt = Infinity;
      logger.info('notification lease lost; another instance delivers now', { owner: this.owner });
    }
  }

  #scheduleScan(delayMs: number): void {
    if (this.#closed || !this.#holding) return;
    if (this.#scanning) {
      if (delayMs <= 0) this.#rescan = true;
      else if (this.#scanTimer === undefined || this.#timers.now() + delayMs < this.#scanAt) this.#armScan(delayMs);
      return;
    }
    const at = this.#timers.now() + delayMs;
    if (this.#scanTimer !== undefined && this.#scanAt <= at) return;
    this.#armScan(delayMs);
  }

  #armScan(delayMs: number): void {
    this.#timers.clearTimeout(this.#scanTimer);
    this.#scanAt = this.#timers.now() + delayMs;
    this.#scanTimer = this.#timers.setTimeout(
      () => {
        this.#scanTimer = undefined;
        this.#scanAt = Infinity;
        void this.#scan();
      },
      Math.max(0, delayMs),
    );
  }

  async #scan(): Promise<void> {
    if (this.#closed || !this.#holding) return;
    if (this.#scanning) {
      this.#rescan = true;
      return;
    }
    this.#scanning = true;
    let next = this.#cfg.scanIntervalMs;
    try {
      do {
        this.#rescan = false;
        next = await this.#scanOnce();
      } while (this.#rescan && !this.#closed && this.#holding);
    } catch (error) {
      this.#o.logger.warn('notification outbox read failed', { error });
      next = this.#cfg.scanIntervalMs;
    } finally {
      this.#scanning = false;
    }
    this.#scheduleScan(next);
  }

  /** Starts what may start now; returns how long until the next look. */
  async #scanOnce(): Promise<number> {
    // Every pending entry in queue order, due or not: an entry waits for an earlier one of its key even while that one waits for its retry.
    const pending = await this.#o.store.dueNotifications(Number.MAX_SAFE_INTEGER, this.#cfg.scanLimit);
    const now = this.#timers.now();
    let nextAt = now + this.#cfg.scanIntervalMs;
    const seen = new Set<string>();
    for (const entry of pending) {
      if (this.#closed || !this.#holding) break;
      if (seen.has(entry.orderKey)) continue;
      seen.add(entry.orderKey);
      if (this.#inFlight.has(entry.id)) continue;
      if (entry.nextAttemptMs > now) {
        nextAt = Math.min(nextAt, entry.nextAttemptMs);
        continue;
      }
      // A finished try wakes the scan, which then starts the rest.
      if (this.#inFlight.size >= this.#cfg.concurrency) continue;
      this.#start(entry);
    }
    return Math.max(0, nextAt - now);
  }

  #start(entry: OutboxEntry): void {
    const abort = new AbortController();
    const done = this.#deliver(entry, abort)
      .catch((error: unknown) => {
        // The entry stays as it was (pending): the next look tries it again.
        this.#o.logger.error('notification try not recorded', { id: entry.id, type: entry.type, error });
      })
      .finally(() => {
        this.#inFlight.delete(entry.id);
        this.wake();
      });
    this.#inFlight.set(entry.id, { done, abort });
  }

  async #deliver(entry: OutboxEntry, abort: AbortController): Promise<void> {
    const { logger, store, url } = this.#o;
    const started = this.#timers.now();
    const attempts = entry.attempts + 1;
    let timedOut = false;
    const timer = this.#timers.setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, this.#cfg.timeoutMs);
    let failure: string | undefined;
    try {
      const signature = await signNotification(entry.body, this.#secrets, Math.floor(started / 1000));
      const res = await this.#fetch(url, {
        method: 'POST',
        body: entry.body,
        headers: {
          'Content-Type': 'application/json',
          [NOTIFICATION_SIGNATURE_HEADER]: signature,
          'User-Agent': `onboarding-kit/${KIT_VERSION}`,
        },
        signal: abort.signal,
        // A redirect would carry the signed body somewhere the integrator did not configure.
        redirect: 'manual',
      });
      // The answer's body means nothing here; dropping it frees the connection.
      await res.body?.cancel().catch(() => undefined);
      if (res.status < 200 || res.status > 299) failure = `HTTP ${res.status}`;
    } catch (error) {
      failure = describeFailure(error, timedOut);
    } finally {
      this.#timers.clearTimeout(timer);
    }
    // Closing abandons the try unrecorded: the entry stays pending for whoever delivers next.
    if (this.#closed && !timedOut && failure !== undefined) return;

    const at = this.#timers.now();
    const lastAttemptAt = new Date(at).toISOString();
    const fields = { id: entry.id, type: entry.type, attempts, ms: at - started };
    if (failure === undefined) {
      await store.updateNotification(entry.id, {
        state: 'delivered',
        attempts,
        nextAttemptMs: entry.nextAttemptMs,
        lastAttemptAt,
        deliveredAt: lastAttemptAt,
        ...(entry.lastError && { lastError: entry.lastError }),
      });
      logger.info('notification delivered', fields);
      return;
    }
    const waited = scheduledWait(attempts - 1, this.#cfg);
    if (waited >= this.#cfg.giveUpAfterMs) {
      await store.updateNotification(entry.id, { state: 'failed', attempts, nextAttemptMs: at, lastAttemptAt, lastError: failure });
      logger.error('notification gave up', { ...fields, error: failure });
      return;
    }
    const delay = retryDelay(attempts, this.#cfg);
    await store.updateNotification(entry.id, { state: 'pending', attempts, nextAttemptMs: at + delay, lastAttemptAt, lastError: failure });
    logger.warn('notification try failed; retrying', { ...fields, error: failure, retryInMs: delay });
  }
}

/** The wait after the `attempts`-th failed try. */
function retryDelay(attempts: number, cfg: { firstDelayMs: number; maxDelayMs: number }): number {
  const doubled = cfg.firstDelayMs * 2 ** Math.min(Math.max(0, attempts - 1), 40);
  return Math.min(doubled, cfg.maxDelayMs);
}

/** The waits the schedule has spent after `failedTries` failed tries. */
function scheduledWait(failedTries: number, cfg: { firstDelayMs: number; maxDelayMs: number }): number {
  let total = 0;
  for (let i = 1; i <= failedTries; i++) total += retryDelay(i, cfg);
  return total;
}

function summarize(e: OutboxEntry): NotificationSummary {
  return {
    id: e.id,
    type: e.type,
    state: e.state,
    orderKey: e.orderKey,
    attempts: e.attempts,
    createdAt: e.createdAt,
    lastAttemptAt: e.lastAttemptAt ?? null,
    lastError: e.lastError ?? null,
    nextAttemptAt: e.state === 'pending' ? new Date(e.nextAttemptMs).toISOString() : null,
    deliveredAt: e.deliveredAt ?? null,
    event: JSON.parse(e.body) as NotificationEvent,
  };
}
