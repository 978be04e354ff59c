/**
 * The clock and timers of time-driven logic (poller backoff, lease renewal, shutdown timeout),
 * injected so tests can move time forward instead of waiting for it.
 */
export interface Timers {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `fn` once after `ms`; a real timer never keeps the process alive on its own. */
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle | undefined): void;
}

/** Opaque to callers: only the `Timers` that made it can clear it. */
export type TimerHandle = object;

export const realTimers: Timers = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return t;
  },
  clearTimeout(handle) {
    if (handle !== undefined) clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};
