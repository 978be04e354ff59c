/**
 * `createCompanion(options)`: the Hono app that sits between the page and the upstream. Mount it
 * anywhere (its routes carry the page API's prefix, the contract's `API_PREFIX`:
 * docs/page-api.md); call `close()` on shutdown: it ends event streams with a reconnection hint,
 * hands polling over to the other instances, waits for requests in flight and closes the store.
 */
import { Hono } from 'hono';
import { buildServices } from './app/services.js';
import { mountRoutes } from './app/mount.js';
import { Shutdown } from './app/shutdown.js';
import { resolveConfig } from './config/resolve-config.js';
import type { CompanionEnv } from './http/env.js';
import type { Logger } from './logger.js';
import type { CompanionOptions } from './options.js';
import type { Store } from './store/store.js';
import type { UpstreamClient } from './upstream/upstream-client.js';

export interface CompanionHandle {
  readonly store: Store;
  readonly upstream: UpstreamClient;
  readonly logger: Logger;
  /** Open event streams right now. */
  openStreams(): number;
  /** Requests being handled right now (an event stream counts until its first answer only). */
  inFlight(): number;
  /** Creations holding a turn (their body read, checked or at the upstream) and creations waiting for one (`creations` option). */
  creations(): { active: number; waiting: number };
  /** How long `close()` lets requests in flight run before closing the store anyway. */
  readonly shutdownGraceMs: number;
  /**
   * Shuts down: ends open event streams with a `retry:` hint, gives polling leases up (other
   * instances take the onboardings over), stops the retention sweep, waits for requests in flight
   * (up to `graceMs`, default `shutdownGraceMs`), then closes the store. Stop accepting requests
   * first (`serveCompanion().close()` does both). Calling it again returns the same promise.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

export type CompanionApp = Hono<CompanionEnv> & CompanionHandle;

export function createCompanion(options: CompanionOptions): CompanionApp {
  const config = resolveConfig(options);
  const services = buildServices(config);
  const shutdown = new Shutdown(services, { graceMs: config.shutdownGraceMs, retryMs: config.sse.retryMs });
  const app = new Hono<CompanionEnv>();
  mountRoutes(app, config, services, () => shutdown.started);
  const handle: CompanionHandle = {
    store: services.store,
    upstream: services.upstream,
    logger: services.logger,
    openStreams: () => services.streams.size,
    inFlight: () => services.inFlight.size,
    creations: () => services.admission.counts,
    shutdownGraceMs: config.shutdownGraceMs,
    close: (closeOptions) => shutdown.close(closeOptions),
  };
  return Object.assign(app, handle);
}
