/**
 * Open event streams, so a shutdown can end them cleanly instead of cutting sockets: each stream
 * is told to end with a `retry:` hint (its page reconnects, through the load balancer, to an
 * instance that is still running), and the shutdown waits until every stream has ended.
 */

/** Ends one stream; `retryMs` is the reconnection hint to send before ending. */
export type StreamCloser = (retryMs: number) => void;

/** A stream registered as itself (`track`/`untrack`): no closer or unregister function held per stream. */
export interface ClosableStream {
  closeStream(retryMs: number): void;
}

export class StreamRegistry {
  private readonly closers = new Set<StreamCloser | ClosableStream>();
  private closing: { retryMs: number } | undefined;
  private readonly idleWaiters = new Set<() => void>();

  /** Registers a stream's closer; returns the function that unregisters it (call it when the stream ends). */
  add(close: StreamCloser): () => void {
    if (this.closing) {
      close(this.hint(this.closing.retryMs));
      return () => {};
    }
    this.closers.add(close);
    return () => {
      this.closers.delete(close);
      if (this.closers.size === 0) for (const wake of [...this.idleWaiters]) wake();
    };
  }

  /** Registers a stream object (its `closeStream` is called on shutdown); `untrack` it when it ends. */
  track(stream: ClosableStream): void {
    if (this.closing) return stream.closeStream(this.hint(this.closing.retryMs));
    this.closers.add(stream);
  }

  untrack(stream: ClosableStream): void {
    if (this.closers.delete(stream) && this.closers.size === 0) for (const wake of [...this.idleWaiters]) wake();
  }

  get size(): number {
    return this.closers.size;
  }

  /**
   * Tells every stream to end, each with its own hint between half and one and a half times
   * `retryMs`, so the pages of a stopping instance do not all reconnect in the same instant.
   * Streams opened afterwards end at once the same way.
   */
  closeAll(retryMs = 0): void {
    this.closing = { retryMs };
    for (const close of [...this.closers]) {
      if (typeof close === 'function') close(this.hint(retryMs));
      else close.closeStream(this.hint(retryMs));
    }
  }

  /** Resolves when no stream is open (at once when none is). */
  idle(): Promise<void> {
    if (this.closers.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        this.idleWaiters.delete(wake);
        resolve();
      };
      this.idleWaiters.add(wake);
    });
  }

  private hint(retryMs: number): number {
    return Math.round(retryMs * (0.5 + Math.random()));
  }
}
