/**
 * State in process memory: for unit tests and `ONBOARDING_STORE=memory`. It dies with the process
 * and is not shared, so it suits one instance that may forget everything on restart.
 */
import { sealerFor } from '../core/data-sealer.js';
import { SharedStore } from '../core/shared-store.js';
import type { Clock } from '../store.js';
import { MemoryPrimitives } from './memory-primitives.js';

export interface MemoryStoreOptions {
  /** The clock of leases, rate windows and default status times (default `Date.now`). */
  now?: Clock;
  /** Encrypts personal data at rest (`ONBOARDING_DATA_KEY`'s format, docs/backend-api.md#personal-data-at-rest). */
  dataKey?: string;
}

export class MemoryStore extends SharedStore {
  readonly #primitives: MemoryPrimitives;

  constructor(options: MemoryStoreOptions = {}, primitives?: MemoryPrimitives) {
    const now = options.now ?? Date.now;
    const held = primitives ?? new MemoryPrimitives(now);
    super(held, now, sealerFor(options.dataKey));
    this.#primitives = held;
  }

  /**
   * Another store on this one's data, with its own options: what a second connection is to the
   * other stores (a restart with other data keys, say), within one process.
   */
  peer(options: MemoryStoreOptions = {}): MemoryStore {
    return new MemoryStore(options, this.#primitives);
  }

  /** What the store holds, as it holds it (personal data sealed when a key was given), as JSON: for dumps and tests. */
  snapshot(): string {
    return this.#primitives.snapshot();
  }

  /** How many onboardings are held (for tests and health checks). */
  get size(): number {
    return this.#primitives.records.size;
  }
}
