/**
 * One asynchronous job at a time, newest wins: starting a run aborts the one before it, and a
 * run may write its result only while it is still the current one. What @lit/task gives, cut
 * down to what the controllers need (the element has no dependency on @lit/task).
 */
export class LatestRun {
  #current: AbortController | null = null;

  /** Whether a run has begun and has neither ended nor been cancelled. */
  get running(): boolean {
    return this.#current !== null;
  }

  /** Aborts the current run, if any, and starts a new one; its signal goes to the work. */
  begin(): AbortSignal {
    this.#current?.abort();
    const run = new AbortController();
    this.#current = run;
    return run.signal;
  }

  /** Whether the run of `signal` may still write its result: not aborted, not replaced. */
  isCurrent(signal: AbortSignal): boolean {
    return !signal.aborted && this.#current?.signal === signal;
  }

  /**
   * Marks the run of `signal` finished. True when it was the current run (then the caller may
   * clear its "busy" state); false for a run that was cancelled or replaced meanwhile.
   */
  end(signal: AbortSignal): boolean {
    if (this.#current?.signal !== signal) return false;
    this.#current = null;
    return true;
  }

  /** Aborts the current run, if any: its result will be ignored. */
  cancel(): void {
    this.#current?.abort();
    this.#current = null;
  }
}
