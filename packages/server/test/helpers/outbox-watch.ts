/**
 * What a notifier does, seen from outside without waiting for time: how often it has looked at
 * its outbox, and which of its tries are under way (a try arms its time limit before anything
 * else and clears it when it is over, so the limits armed and not yet cleared are the tries under
 * way). A test can then say "the notifier looked at the queue again and started nothing" instead
 * of sleeping, and end a hanging try at the moment it chooses.
 */
import type { NotifierOptions } from '../../src/notifications/outbox.js';
import { realTimers, type TimerHandle, type Timers } from '../../src/relay/timers.js';

type OutboxStore = NotifierOptions['store'];

export interface WatchedOutbox {
  /** The store to hand to the notifier(s). */
  store: OutboxStore;
  /**
   * Resolves once `count` more looks at the outbox have ended, and what each started has armed
   * its time limit. Looks never overlap, so the second one begins after this call.
   */
  looked(count?: number): Promise<void>;
}

/** `store`, with each completed look at the pending entries (`dueNotifications`) counted. */
export function watchOutbox(store: OutboxStore): WatchedOutbox {
  let looks = 0;
  const waiters = new Set<{ at: number; wake: () => void }>();
  const watched: OutboxStore = {
    acquireLease: (...a) => store.acquireLease(...a),
    renewLease: (...a) => store.renewLease(...a),
    releaseLease: (...a) => store.releaseLease(...a),
    enqueueNotification: (...a) => store.enqueueNotification(...a),
    updateNotification: (...a) => store.updateNotification(...a),
    getNotification: (...a) => store.getNotification(...a),
    listNotifications: (...a) => store.listNotifications(...a),
    async dueNotifications(...a) {
      const due = await store.dueNotifications(...a);
      looks++;
      for (const w of [...waiters]) {
        if (looks < w.at) continue;
        waiters.delete(w);
        // After the notifier's own continuation: the tries this look started are armed by then.
        setImmediate(w.wake);
      }
      return due;
    },
  };
  return {
    store: watched,
    looked: (count = 2) => new Promise<void>((wake) => waiters.add({ at: looks + count, wake })),
  };
}

export interface TryTimers {
  /** The notifier's timers: the real ones, but for the tries' time limits. */
  timers: Timers;
  /** Tries under way: time limits armed and not yet cleared. */
  underWay(): number;
  /** Runs out the time limit of every try under way. */
  expire(): void;
}

/**
 * Timers whose limits of `tryTimeoutMs` (the notifier's `timeoutMs`, a value none of its other
 * timers use) are counted, and held until `expire()` when `hold` is set.
 */
export function tryTimers(tryTimeoutMs: number, options: { hold?: boolean } = {}): TryTimers {
  const limits = new Map<TimerHandle, { fn: () => void; real: TimerHandle | undefined }>();
  const timers: Timers = {
    now: realTimers.now,
    setTimeout(fn, ms) {
      if (ms !== tryTimeoutMs) return realTimers.setTimeout(fn, ms);
      const handle = {};
      const real = options.hold ? undefined : realTimers.setTimeout(() => limits.delete(handle) && fn(), ms);
      limits.set(handle, { fn, real });
      return handle;
    },
    clearTimeout(handle) {
      const limit = handle && limits.get(handle);
      if (!limit) return realTimers.clearTimeout(handle);
      limits.delete(handle);
      realTimers.clearTimeout(limit.real);
    },
  };
  return {
    timers,
    underWay: () => limits.size,
    expire() {
      for (const [handle, limit] of [...limits]) {
        limits.delete(handle);
        realTimers.clearTimeout(limit.real);
        limit.fn();
      }
    },
  };
}
