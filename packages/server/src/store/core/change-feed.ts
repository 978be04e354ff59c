/** In-process fan-out of record changes to the listeners of each onboarding. */
import { copyRecord } from '../rules/copies.js';
import type { ChangeListener, OnboardingRecord } from '../store.js';

export class ChangeFeed {
  private readonly listeners = new Map<string, Set<ChangeListener>>();
  /** History length of the last record given to each onboarding's listeners (history only grows). */
  private readonly delivered = new Map<string, number>();

  subscribe(token: string, listener: ChangeListener): () => void {
    let set = this.listeners.get(token);
    if (!set) this.listeners.set(token, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(token) === set) {
        this.listeners.delete(token);
        this.delivered.delete(token);
      }
    };
  }

  /**
   * Like `emit`, but skips a record no newer than the last one given: records that reach a shared
   * store's instance by two paths (its change channel and a catch-up read) may arrive twice or out
   * of order, and a listener must not be told an older state after a newer one.
   */
  emitIfNewer(record: OnboardingRecord): void {
    const last = this.delivered.get(record.tokenOnboarding);
    if (last !== undefined && record.history.length <= last) return;
    this.emit(record);
  }

  /** A token created anew starts a new history: forget what its listeners were given. */
  forget(token: string): void {
    this.delivered.delete(token);
  }

  emit(record: OnboardingRecord): void {
    const set = this.listeners.get(record.tokenOnboarding);
    if (!set) return;
    this.delivered.set(record.tokenOnboarding, record.history.length);
    for (const listener of [...set]) {
      try {
        // Each listener gets its own copy: one that edits what it got cannot change what others see.
        listener(copyRecord(record));
      } catch {
        // One broken subscriber must not keep the news from the others.
      }
    }
  }

  /** Onboardings someone listens to (to catch up on after a gap in a shared feed). */
  tokens(): string[] {
    return [...this.listeners.keys()];
  }

  clear(): void {
    this.listeners.clear();
    this.delivered.clear();
  }
}
