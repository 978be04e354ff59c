/**
 * The companion's shutdown, in its order: the retention sweep stops; sessions, query requests
 * and notifications stop; open event streams end with a `retry:` hint; polling leases are given up (other instances
 * take the onboardings over); requests in flight and instant checks under way get up to the grace period; then the store
 * closes. Started once: a second `close()` returns the same promise.
 */
import type { CompanionServices } from './services.js';

export class Shutdown {
  #closing: Promise<void> | undefined;

  constructor(
    private readonly services: CompanionServices,
    private readonly timing: { readonly graceMs: number; readonly retryMs: number },
  ) {}

  /** Whether `close()` has been called (the health route answers 503 from then on). */
  get started(): boolean {
    return this.#closing !== undefined;
  }

  close(options: { graceMs?: number } = {}): Promise<void> {
    this.#closing ??= this.#run(options.graceMs ?? this.timing.graceMs);
    return this.#closing;
  }

  async #run(graceMs: number): Promise<void> {
    const { sweep, sessions, queries, checks, notifier, streams, poller, inFlight, store, logger } = this.services;
    sweep.close();
    await sessions?.close();
    await queries?.close();
    await notifier?.close();
    streams.closeAll(this.timing.retryMs);
    await poller.close();
    // Instant checks under way get the same grace: their answers land in the store before it closes.
    if (!(await settlesWithin(Promise.all([inFlight.idle(), streams.idle(), checks?.settled()]), graceMs))) {
      logger.warn('shutdown: requests still in flight after the grace period; closing the store anyway', {
        inFlight: inFlight.size,
        openStreams: streams.size,
        graceMs,
      });
    }
    await store.close?.();
  }
}

/** True when `p` settles within `ms`; false when the time ran out first. */
async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([p.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
