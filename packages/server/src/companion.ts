/**
 * `createCompanion(options)`: the Hono app that sits between the page and the upstream. Mount it
 * anywhere (its routes carry the page API's prefix, the contract's `API_PREFIX`:
 * docs/page-api.md); call `close()` on shutdown: it ends event streams with a reconnection hint,
 * hands polling over to the other instances, waits for requests in flight and closes the store.
 */
import { API_PREFIX, IMAGE_ROLES, type ImageRoleName } from '@onboarding-kit/contract';
import { Hono } from 'hono';
import { createAdminRoutes } from './admin/admin-routes.js';
import { Admission, BodyBuffers, defaultAnswerHeader, socketAddress } from './transport/index.js';
import type { CompanionEnv } from './http/env.js';
import { companionErrorHandler, notFoundHandler } from './http/error-handler.js';
import { InFlight } from './lifecycle/in-flight.js';
import { RetentionSweep } from './lifecycle/retention-sweep.js';
import { createJsonLogger, redactingLogger, type Logger } from './logger.js';
import { requestFrame } from './middleware/request-frame.js';
import { loadBrand } from './hosted/brand.js';
import { defaultElementDir, HostedAssets } from './hosted/hosted-assets.js';
import { hostedRoutes } from './hosted/hosted-routes.js';
import { checkOptions, defaults, type CompanionOptions } from './options.js';
import { ApiKeyring, requireApiKey } from './auth/api-keys.js';
import { StatusPoller } from './relay/poller.js';
import { realTimers } from './relay/timers.js';
import { SessionService } from './sessions/session-service.js';
import { pageSessionRoutes, sessionRoutes } from './sessions/session-routes.js';
import { HandoffService } from './handoff/handoff-service.js';
import { handoffClaimRoutes, handoffPageRoutes } from './handoff/handoff-routes.js';
import { withStatusHook } from './sessions/status-hook.js';
import { StreamRegistry } from './relay/stream-registry.js';
import { onboardingRoutes } from './onboardings/onboarding-routes.js';
import { queryRoutes } from './queries/query-routes.js';
import { requireAdminKey } from './admin/auth.js';
import { Notifier } from './notifications/outbox.js';
import { notificationAdminRoutes } from './notifications/notification-routes.js';
import { webhookRoutes } from './webhooks/webhook-routes.js';
import { MemoryStore, type Store } from './store/index.js';
import { createUpstreamClient, type UpstreamClient } from './upstream/upstream-client.js';
import { KIT_VERSION } from './version.js';

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
  checkOptions(options);
  // The brand is checked and its logo read now: a bad one stops the start, not a page later.
  const brand = loadBrand(options.hostedPage?.brand ?? {});
  const environment = options.environment ?? defaults.environment;
  let upstream: UpstreamClient | undefined;
  // Every log line passes through redaction with the exact secrets we hold, whoever the logger is.
  const secrets = () => [
    options.secret,
    options.webhookKey,
    ...(options.adminKey ? [options.adminKey] : []),
    ...(options.apiKeys ?? []),
    ...(options.notify ? (typeof options.notify.secret === 'string' ? [options.notify.secret] : options.notify.secret) : []),
    ...(upstream?.secrets() ?? []),
  ];
  const logger = redactingLogger((options.logger ?? createJsonLogger()).child({ environment }), secrets);
  upstream = options.upstreamClient ?? createUpstreamClient({
    ...options.upstream,
    baseUrl: options.baseUrl,
    client: options.client,
    secret: options.secret,
    ...(options.aliases && { aliases: options.aliases }),
    logger,
  });
  const store: Store = options.store ?? new MemoryStore();
  const retentionMs = options.retentionMs ?? defaults.retentionMs;
  const maxAgeMs = options.maxAgeMs ?? defaults.maxAgeMs;
  const timers = options.timers ?? realTimers;
  const sessionsRequired = (options.sessions ?? (environment === 'production' ? 'required' : 'optional')) === 'required';
  const keyring = options.apiKeys?.length ? ApiKeyring.from(options.apiKeys) : undefined;
  const notifier = options.notify
    ? new Notifier({
        store: store,
        url: options.notify.url,
        secret: options.notify.secret,
        logger,
        timers,
        ...(options.notify.timeoutMs !== undefined && { timeoutMs: options.notify.timeoutMs }),
        ...(options.notify.fetch && { fetch: options.notify.fetch }),
      })
    : undefined;
  // Sessions need API keys to be opened; the service also sweeps the outbox's old entries.
  const sessions = keyring || notifier
    ? new SessionService({ store: store, timers, logger, retentionMs, ...(notifier && { notifier }), ...(options.publicUrl && { publicUrl: options.publicUrl }) })
    : undefined;
  // Status changes, wherever they are applied, complete the session of their onboarding.
  const followedStore: Store = sessions ? withStatusHook(store, (record) => sessions.onboardingChanged(record), logger) : store;
  // A shared store may hold onboardings created elsewhere or before this process: the poller takes over those nobody polls.
  const poller = new StatusPoller({
    store: followedStore,
    report: (t) => upstream.report(t),
    logger,
    timings: { maxDurationMs: maxAgeMs, ...options.poll },
    takeOver: options.resumePolling !== false,
    ...(options.timers && { timers: options.timers }),
  });
  const streams = new StreamRegistry();
  const inFlight = new InFlight();
  const retryMs = options.sse?.retryMs ?? defaults.retryMs;
  const shutdownGraceMs = options.shutdownGraceMs ?? (options.upstream?.timeoutMs ?? defaults.upstreamTimeoutMs) + 1_000;
  let closing: Promise<void> | undefined;
  const concurrentCreations = options.creations?.concurrent ?? defaults.creationsConcurrent();
  const admission = new Admission({ concurrent: concurrentCreations, waiting: options.creations?.waiting ?? concurrentCreations * defaults.creationsWaitingPerTurn });
  // One body buffer kept per turn at most (the usual body is a few MB; a larger one gets its own).
  const bodyBuffers = new BodyBuffers({ maxKept: concurrentCreations, maxBytes: 8 * 1024 * 1024 });
  const documentFileTypes = Object.fromEntries(IMAGE_ROLES.map((r) => [r, options.documentFileTypes?.[r] ?? defaults.documentFileType])) as Record<ImageRoleName, string>;

  const app = new Hono<CompanionEnv>();
  // In flight, request id, request log, security headers, CORS: one middleware (middleware/request-frame.ts).
  app.use('*', requestFrame({ inFlight, logger, allowedOrigins: options.allowedOrigins ?? [] }));
  // The one error model for the page, webhook and admin routes (docs/page-api.md#error-shape).
  app.onError(companionErrorHandler({ logger, environment }));
  app.notFound(notFoundHandler);

  const api = app.basePath(API_PREFIX);
  api.use('*', async (c, next) => {
    await next();
    defaultAnswerHeader(c, 'Cache-Control', 'no-store');
  });
  // For load balancers (docs/page-api.md#health): 503 while the store does not answer or the instance is stopping.
  api.get('/health', async (c) => {
    if (closing) return c.json({ ok: false, stopping: true }, 503);
    try {
      await store.ping();
    } catch (error) {
      c.get('log').warn('health: store unavailable', { error });
      return c.json({ ok: false, store: 'unavailable' }, 503);
    }
    return c.json({ ok: true });
  });
  api.route('/onboardings', onboardingRoutes({
    store, upstream, poller, streams, environment, logger,
    ...(sessions && { sessions }),
    sessionsRequired,
    admission,
    bodyBuffers,
    imageMaxBytes: options.imageMaxBytes ?? defaults.imageMaxBytes,
    documentFileTypes,
    rateLimit: options.rateLimit ?? defaults.rateLimit,
    clientAddress: options.clientAddress ?? socketAddress,
    reportPdf: options.reportPdf ?? false,
    sse: { keepAliveMs: options.sse?.keepAliveMs ?? defaults.keepAliveMs, retryMs },
  }));
  api.route('/webhooks', webhookRoutes({ store: followedStore, webhookKey: options.webhookKey, ...(notifier && { notifier }) }));
  // The integrator's backend (docs/backend-api.md): behind its API keys, never a page's secret.
  sessions?.start();
  if (sessions && keyring) {
    const backendAuth = requireApiKey(keyring);
    api.route('/sessions', sessionRoutes({ sessions, auth: backendAuth }));
    api.route('/session', pageSessionRoutes({ sessions }));
    // The hand-off between devices (docs/page-api.md#hand-off).
    const handoffDeps = {
      sessions,
      handoff: new HandoffService({ sessions, logger, ...(options.handoff?.ttlMs !== undefined && { ttlMs: options.handoff.ttlMs }) }),
      streams,
      timers,
      sse: { keepAliveMs: options.sse?.keepAliveMs ?? defaults.keepAliveMs, retryMs },
      clientAddress: options.clientAddress ?? socketAddress,
      counters: store,
      logger,
    };
    api.route('/session', handoffPageRoutes(handoffDeps));
    api.route('/handoff', handoffClaimRoutes(handoffDeps));
    // The hosted capture page and the hand-off pages (docs/hosted-page.md), outside the API prefix.
    app.route('/', hostedRoutes({
      sessions,
      brand,
      assets: new HostedAssets(brand, options.hostedPage?.elementDir ?? defaultElementDir()),
      logger,
    }));
    api.route('/queries', queryRoutes({
      upstream,
      auth: backendAuth,
      environment,
      imageMaxBytes: options.imageMaxBytes ?? defaults.imageMaxBytes,
      ...(options.aliases && { aliases: options.aliases }),
    }));
  }
  if (options.adminKey || keyring) {
    if (notifier) {
      const adminAuth = keyring ? requireApiKey(keyring, { ...(options.adminKey && { alsoAccept: options.adminKey }) }) : requireAdminKey(options.adminKey!);
      const outbox = new Hono<CompanionEnv>();
      outbox.use('/notifications', adminAuth);
      outbox.use('/notifications/*', adminAuth);
      outbox.route('/', notificationAdminRoutes({ notifier }));
      api.route('/admin', outbox);
    }
    api.route('/admin', createAdminRoutes({
      ...(options.adminKey && { adminKey: options.adminKey }),
      ...(keyring && { apiKeys: keyring }),
      environment,
      kitVersion: KIT_VERSION,
      upstream,
      store: adminView(store),
    }));
  }

  // Retention: personal data is not kept longer than needed.
  const sweep = new RetentionSweep({ store, retentionMs, maxAgeMs, logger, ...(options.timers && { timers: options.timers }) });

  const handle: CompanionHandle = {
    store,
    upstream,
    logger,
    openStreams: () => streams.size,
    inFlight: () => inFlight.size,
    creations: () => admission.counts,
    shutdownGraceMs,
    close(closeOptions = {}) {
      closing ??= (async () => {
        sweep.close();
        await sessions?.close();
        await notifier?.close();
        streams.closeAll(retryMs);
        await poller.close();
        const graceMs = closeOptions.graceMs ?? shutdownGraceMs;
        if (!(await settlesWithin(Promise.all([inFlight.idle(), streams.idle()]), graceMs))) {
          logger.warn('shutdown: requests still in flight after the grace period; closing the store anyway', { inFlight: inFlight.size, openStreams: streams.size, graceMs });
        }
        await store.close?.();
      })();
      return closing;
    },
  };
  return Object.assign(app, handle);
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

/** What the admin routes may read of the store: records without the access-key hash. */
function adminView(store: Store) {
  return {
    async get(token: string) {
      const record = await store.get(token);
      if (!record) return null;
      const { accessKeyHash: _hash, finishedAt: _finishedAt, ...view } = record;
      return view;
    },
  };
}
