/** In-process fan-out of "this session changed" to the listeners of each session. */
import type { SessionChangeListener } from '../backend-state.js';

export class SessionFeed {
  private readonly listeners = new Map<string, Set<SessionChangeListener>>();

  subscribe(id: string, listener: SessionChangeListener): () => void {
    let set = this.listeners.get(id);
    if (!set) this.listeners.set(id, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(id) === set) this.listeners.delete(id);
    };
  }

  emit(id: string): void {
    for (const listener of [...(this.listeners.get(id) ?? [])]) {
      try {
        listener(id);
      } catch {
        // One broken listener must not keep the news from the others.
      }
    }
  }

  /** Sessions someone listens to (to tell after a gap in a shared feed). */
  ids(): string[] {
    return [...this.listeners.keys()];
  }

  clear(): void {
    this.listeners.clear();
  }
}
