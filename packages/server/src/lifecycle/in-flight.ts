/**
 * Requests the companion is still handling, so a shutdown can wait for them (a creation between
 * its upstream call and its store write must not lose its record) and close the store only after.
 */
import type { MiddlewareHandler } from 'hono';

export class InFlight {
  private count = 0;
  private readonly idleWaiters = new Set<() => void>();

  /** Counts each request from its start until its handler has answered (an event stream's body runs on; see StreamRegistry). */
  readonly middleware: MiddlewareHandler = async (_c, next) => {
    this.enter();
    try {
      await next();
    } finally {
      this.leave();
    }
  };

  /** A request starts (each `enter()` is followed by one `leave()`, whatever happens). */
  enter(): void {
    this.count++;
  }

  leave(): void {
    this.count--;
    if (this.count === 0) for (const wake of [...this.idleWaiters]) wake();
  }

  get size(): number {
    return this.count;
  }

  /** Resolves when no request is being handled (at once when none is). */
  idle(): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        this.idleWaiters.delete(wake);
        resolve();
      };
      this.idleWaiters.add(wake);
    });
  }
}
