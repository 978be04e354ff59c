/**
 * The pace a creation's body must keep to hold its turn (docs/page-api.md#limits-and-configuration):
 * the whole body within `bodyTimeoutMs`, and at least `minBytesPerS` in every window of `graceMs`
 * from the first byte asked for. A turn is what every other creation waits for, so a body that
 * stalls or trickles gives it up within one window instead of holding it for the request timeout.
 */
export interface BodyPace {
  /** Longest time for the whole body, from the moment it is read. */
  bodyTimeoutMs: number;
  /** Least bytes per second, judged over each window. */
  minBytesPerS: number;
  /** The length of each window, the first one included (the grace a body gets before it is judged). */
  graceMs: number;
}

/** Why a body was given up. */
export type PaceBreach = 'deadline' | 'too_slow';

export interface PaceWatch {
  /** Counts bytes as they arrive. */
  got(bytes: number): void;
  /** The body is complete or given up: no more judging. */
  stop(): void;
}

/** Bytes a window must bring (at least 1: a window with nothing in it is always too slow). */
export function windowQuota(pace: BodyPace): number {
  return Math.max(1, Math.ceil((pace.minBytesPerS * pace.graceMs) / 1_000));
}

/** Judges a body's pace from now on; `breach` is called at most once, and never after `stop`. */
export function watchPace(pace: BodyPace, breach: (why: PaceBreach) => void): PaceWatch {
  const quota = windowQuota(pace);
  let inWindow = 0;
  let stopped = false;
  const end = (why: PaceBreach) => {
    if (stopped) return;
    stop();
    breach(why);
  };
  const judge = () => {
    if (inWindow < quota) return end('too_slow');
    inWindow = 0;
    window = setTimeout(judge, pace.graceMs);
  };
  let window = setTimeout(judge, pace.graceMs);
  const deadline = setTimeout(() => end('deadline'), pace.bodyTimeoutMs);
  function stop() {
    stopped = true;
    clearTimeout(window);
    clearTimeout(deadline);
  }
  return {
    got(bytes) {
      inWindow += bytes;
    },
    stop,
  };
}
