/**
 * State in process memory: for unit tests and `ONBOARDING_STORE=memory`. It dies with the process
 * and is not shared, so it suits one instance that may forget everything on restart.
 */
import { SharedStore } from '../core/shared-store.js';
import type { Clock } from '../store.js';
import { MemoryPrimitives } from './memory-primitives.js';

export interface MemoryStoreOptions {
  /** The clock of leases, rate windows and default status times (default `Date.now`). */
  now?: Clock;
}

export class MemoryStore extends SharedStore {
  readonly #primitives: MemoryPrimitives;

  constructor(options: MemoryStoreOptions = {}) {
    const now = options.now ?? Date.now;
    const primitives = new MemoryPrimitives(now);
    super(primitives, now);
    this.#primitives = primitives;
  }

  /** How many onboardings are held (for tests and health checks). */
  get size(): number {
    return this.#primitives.records.size;
  }
}
