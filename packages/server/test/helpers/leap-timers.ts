/**
 * Real timers that a test can also run out all at once: `leap()` fires every pending timer at once, as
 * if the clock had passed them all. A test proves that nothing more is scheduled for something by
 * leaping and seeing nothing happen, instead of sleeping and hoping the machine kept up.
 */
import { realTimers, type TimerHandle, type Timers } from '../../src/relay/timers.js';

export interface LeapTimers extends Timers {
  /** Fires every pending timer (not the ones they arm). */
  leap(): void;
}

export function leapTimers(): LeapTimers {
  const pending = new Map<TimerHandle, { fn: () => void; real: TimerHandle }>();
  return {
    now: realTimers.now,
    setTimeout(fn, ms) {
      const handle = {};
      const real = realTimers.setTimeout(() => {
        pending.delete(handle);
        fn();
      }, ms);
      pending.set(handle, { fn, real });
      return handle;
    },
    clearTimeout(handle) {
      const timer = handle && pending.get(handle);
      if (!timer) return;
      pending.delete(handle);
      realTimers.clearTimeout(timer.real);
    },
    leap() {
      for (const [handle, timer] of [...pending]) {
        pending.delete(handle);
        realTimers.clearTimeout(timer.real);
        timer.fn();
      }
    },
  };
}
