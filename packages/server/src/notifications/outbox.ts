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
import { realTimers, type TimerHandle, type Timers } from '../relay/timers.js';
import type { OutboxEntry } from '../store/backend-state.js';
import { afterFailedTry, pickDeliveries } from '../store/index.js';
import { tryDelivery } from './delivery-try.js';
import { summarize, type NotificationFilter, type NotificationSummary } from './notification-summary.js';
import { notifierConfig, type NotifierConfig, type NotifierOptions } from './notifier-options.js';

export { NOTIFICATION_FILTERS, type NotificationFilter } from './notification-summary.js';
export type { NotifierOptions } from './notifier-options.js';

export const OUTBOX_LEASE = 'outbox';

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

const MAX_ID_LENGTH = 200;

function randomHex(bytes: number): string {
  return Array.from(globalThis.crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, '0')).join('');
}

export class Notifier {
  readonly owner: string;
  readonly #o: NotifierOptions;
  readonly #secrets: readonly string[];
  readonly #timers: Timers;
  readonly #fetch: typeof fetch;
  readonly #cfg: NotifierConfig;
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
    this.#cfg = notifierConfig(options);
    if (options.environment !== 'test' && options.environment !== 'production')
      throw new RangeError('a notifier needs the environment its events name: test or production');
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
    const event: NotificationEvent<T> = { id, type: input.type, createdAt, environment: this.#o.environment, data: input.data };
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
    let next: number;
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
    if (this.#closed || !this.#holding) return this.#cfg.scanIntervalMs;
    const now = this.#timers.now();
    // A finished try wakes the scan, which then starts the rest.
    const { start, nextAtMs } = pickDeliveries(pending, now, {
      inFlight: (id) => this.#inFlight.has(id),
      room: this.#cfg.concurrency - this.#inFlight.size,
      nextLookMs: this.#cfg.scanIntervalMs,
    });
    for (const entry of start) this.#start(entry);
    return Math.max(0, nextAtMs - now);
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
    const tryDeps = { url, secrets: this.#secrets, fetch: this.#fetch, timers: this.#timers, timeoutMs: this.#cfg.timeoutMs };
    const { failure, timedOut } = await tryDelivery(entry, tryDeps, abort, started);
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
    const next = afterFailedTry(attempts, at, this.#cfg);
    await store.updateNotification(entry.id, { ...next, attempts, lastAttemptAt, lastError: failure });
    if (next.state === 'failed') logger.error('notification gave up', { ...fields, error: failure });
    else logger.warn('notification try failed; retrying', { ...fields, error: failure, retryInMs: next.nextAttemptMs - at });
  }
}
