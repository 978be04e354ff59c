/** Open event streams, so a shutdown can end them cleanly instead of cutting sockets. */
export class StreamRegistry {
  private readonly closers = new Set<() => void>();
  private closing = false;

  /** Registers a stream's closer; returns the function that unregisters it. */
  add(close: () => void): () => void {
    if (this.closing) {
      close();
      return () => {};
    }
    this.closers.add(close);
    return () => this.closers.delete(close);
  }

  get size(): number {
    return this.closers.size;
  }

  closeAll(): void {
    this.closing = true;
    for (const close of [...this.closers]) close();
    this.closers.clear();
  }
}
