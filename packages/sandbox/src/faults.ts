/** Fault injection state. The error rate is applied by a counter, not by chance, so tests are never flaky. */
import { NO_FAULTS, faultsError, type Faults } from './options.js';

export class FaultState {
  #faults: Faults = { ...NO_FAULTS };
  #calls = 0;

  get current(): Readonly<Faults> {
    return this.#faults;
  }

  set(partial: Partial<Faults>): void {
    const error = faultsError(partial);
    if (error) throw new RangeError(error);
    this.#faults = { ...this.#faults, ...partial };
    if (partial.errorRate !== undefined) this.#calls = 0;
  }

  reset(): void {
    this.#faults = { ...NO_FAULTS };
    this.#calls = 0;
  }

  /**
   * Whether the next service-api call fails. Call n fails when floor(n * rate) grows, so exactly
   * floor(N * rate) of the first N calls fail, spread evenly (rate 0.5: every second call).
   */
  nextCallFails(): boolean {
    const rate = this.#faults.errorRate;
    if (rate <= 0) return false;
    this.#calls++;
    return Math.floor(this.#calls * rate) > Math.floor((this.#calls - 1) * rate);
  }
}
