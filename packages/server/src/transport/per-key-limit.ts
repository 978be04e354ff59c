/**
 * At most `limit` requests at once under each key (a client address, a session): a few slow
 * uploads from one client cannot take every creation turn. Counted in this instance's memory; a
 * key with nothing under way holds no entry. A limit of 0 counts nothing and refuses nothing.
 */
const NOTHING = () => {};

export class PerKeyLimit {
  private readonly held = new Map<string, number>();

  constructor(readonly limit: number) {}

  /** What is under way now under `key`. */
  count(key: string): number {
    return this.held.get(key) ?? 0;
  }

  /**
   * One more under every key of `keys` (all or none): its `release` (later calls do nothing), or
   * null when one of them already has `limit` under way.
   */
  enter(keys: readonly string[]): (() => void) | null {
    if (this.limit === 0) return NOTHING;
    if (keys.some((key) => this.count(key) >= this.limit)) return null;
    for (const key of keys) this.held.set(key, this.count(key) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const key of keys) {
        const left = this.count(key) - 1;
        if (left > 0) this.held.set(key, left);
        else this.held.delete(key);
      }
    };
  }
}
