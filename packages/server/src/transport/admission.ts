/**
 * Admission of creations (docs/page-api.md#limits-and-configuration): at most `concurrent` of
 * them hold a body at once, from the first byte read until the upstream has answered. The others
 * wait before their body is read (its bytes stay in the kernel's socket buffers, not in this
 * process), first come first served, up to `waiting` of them; past that a creation is refused at
 * once with 503 `busy` and `Retry-After`. So the memory that bodies take is bounded by
 * `concurrent` bodies whatever the number of uploads at once, and each admitted body is read at
 * full speed and goes upstream as soon as it is complete, instead of 64 slow uploads that all
 * finish (and go upstream) together at the end.
 */
import type { ClientGone } from './client-gone.js';
import { DomainError } from '../errors/domain-error.js';

export interface AdmissionLimits {
  /** Creations that may hold a body at once. */
  concurrent: number;
  /** Creations that may wait for a turn; 0: none wait, a creation past `concurrent` is refused. */
  waiting: number;
}

interface Waiter {
  admit: (release: () => void) => void;
}

/** Seconds a creation refused as `busy` is told to wait. */
const BUSY_RETRY_AFTER_S = 2;

export class Admission {
  private active = 0;
  private readonly queue: Waiter[] = [];

  constructor(readonly limits: AdmissionLimits) {}

  /** Creations holding a turn now, and creations waiting for one. */
  get counts(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.queue.length };
  }

  /**
   * A turn: resolves with its `release` (call it once the body is no longer needed; later calls do
   * nothing). Throws 503 `busy` when `waiting` creations wait already. `gone`: hears the client go
   * away while waiting (its place is given up, and the promise rejects with 499).
   */
  enter(gone?: ClientGone): Promise<() => void> {
    if (this.active < this.limits.concurrent && this.queue.length === 0) {
      this.active++;
      return Promise.resolve(this.releaser());
    }
    if (this.queue.length >= this.limits.waiting) {
      return Promise.reject(
        new DomainError('busy', undefined, {
          retryAfterS: BUSY_RETRY_AFTER_S,
        }),
      );
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        admit: (release) => {
          stopListening?.();
          resolve(release);
        },
      };
      this.queue.push(waiter);
      // Only a creation that waits listens for its client going away (heard twice, the second finds nothing to do).
      const stopListening = gone?.(() => {
        const at = this.queue.indexOf(waiter);
        if (at >= 0) this.queue.splice(at, 1);
        reject(new DomainError('client_closed_request'));
      });
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // The turn passes straight to the first in line; `active` stays the same.
      const next = this.queue.shift();
      if (next) next.admit(this.releaser());
      else this.active--;
    };
  }
}
