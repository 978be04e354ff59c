/**
 * A clock that moves only when the test says so, for time-driven code that takes its clock and
 * timers injected (`now`, `setTimeout`, `clearTimeout`): the sandbox's processing, token lifetimes
 * and delayed webhooks, and the companion's time-driven parts. `advance(ms)` fires every timer
 * due on the way, in order, each at its own instant, and lets the promises each one starts settle
 * before going on. Nothing waits for real time, so nothing depends on how loaded the machine is.
 */

interface Pending {
  at: number;
  seq: number;
  fn: () => void;
}

/** Lets chains of already-resolved promises run to their end (a few event-loop turns). */
export async function settle(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setImmediate(r));
}

export class ManualClock {
  private t: number;
  private seq = 0;
  private readonly pending = new Set<Pending>();

  /** Starts at `start` (default: now, so timestamps from the real clock and this one agree). */
  constructor(start = Date.now()) {
    this.t = start;
  }

  readonly now = (): number => this.t;

  setTimeout(fn: () => void, ms: number): object {
    const p: Pending = { at: this.t + Math.max(0, ms), seq: this.seq++, fn };
    this.pending.add(p);
    return p;
  }

  clearTimeout(handle: unknown): void {
    if (handle) this.pending.delete(handle as Pending);
  }

  /** Timers waiting to fire. */
  get size(): number {
    return this.pending.size;
  }

  /** Moves the clock `ms` forward, firing what falls due on the way. */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      await settle();
      let next: Pending | undefined;
      for (const p of this.pending) if (p.at <= end && (!next || p.at < next.at || (p.at === next.at && p.seq < next.seq))) next = p;
      if (!next) break;
      this.pending.delete(next);
      this.t = next.at;
      next.fn();
    }
    this.t = end;
    await settle();
  }
}
