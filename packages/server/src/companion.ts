/**
 * `createCompanion(options)`: the Hono app that sits between the page and the upstream. Mount it
 * anywhere (its routes carry the page API's prefix, the contract's `API_PREFIX`:
 * docs/page-api.md); call `close()` on shutdown to end event streams, polling and the retention
 * sweep.
 */
import { API_PREFIX, IMAGE_ROLES, type ImageRoleName } from '@onboarding-kit/contract';
import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import { secureHeaders } from 'hono/secure-headers';
import { createAdminRoutes } from './admin/admin-routes.js';
import type { CompanionEnv } from './http/env.js';
import { companionErrorHandler, notFoundHandler } from './http/error-handler.js';
import { createJsonLogger, redactingLogger, type Logger } from './logger.js';
import { corsAllowlist } from './middleware/cors.js';
import { socketAddress } from './middleware/rate-limit.js';
import { requestLog } from './middleware/request-log.js';
import { checkOptions, defaults, type CompanionOptions } from './options.js';
import { StatusPoller } from './relay/poller.js';
import { StreamRegistry } from './relay/stream-registry.js';
import { onboardingRoutes } from './routes/onboardings.js';
import { webhookRoutes } from './routes/webhooks.js';
import { MemoryStore } from './store/memory-store.js';
import type { Store } from './store/store.js';
import { createUpstreamClient, type UpstreamClient } from './upstream/upstream-client.js';
import { KIT_VERSION } from './version.js';

export interface CompanionHandle {
  readonly store: Store;
  readonly upstream: UpstreamClient;
  readonly logger: Logger;
  /** Open event streams right now. */
  openStreams(): number;
  /** Ends open event streams, polling and the retention sweep. */
  close(): Promise<void>;
}

export type CompanionApp = Hono<CompanionEnv> & CompanionHandle;

export function createCompanion(options: CompanionOptions): CompanionApp {
  checkOptions(options);
  const environment = options.environment ?? defaults.environment;
  let upstream: UpstreamClient | undefined;
  // Every log line passes through redaction with the exact secrets we hold, whoever the logger is.
  const secrets = () => [options.secret, options.webhookKey, ...(options.adminKey ? [options.adminKey] : []), ...(upstream?.secrets() ?? [])];
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
  const poller = new StatusPoller({ store, report: (t) => upstream.report(t), logger, ...(options.poll && { timings: options.poll }) });
  const streams = new StreamRegistry();
  const documentFileTypes = Object.fromEntries(IMAGE_ROLES.map((r) => [r, options.documentFileTypes?.[r] ?? defaults.documentFileType])) as Record<ImageRoleName, string>;

  const app = new Hono<CompanionEnv>();
  app.use('*', requestId());
  app.use('*', requestLog(logger));
  app.use('*', secureHeaders());
  app.use('*', corsAllowlist(options.allowedOrigins ?? []));
  // The one error model for the page, webhook and admin routes (docs/page-api.md#error-shape).
  app.onError(companionErrorHandler({ logger, environment }));
  app.notFound(notFoundHandler);

  const api = app.basePath(API_PREFIX);
  api.use('*', async (c, next) => {
    await next();
    if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
  });
  api.get('/health', (c) => c.json({ ok: true }));
  api.route('/onboardings', onboardingRoutes({
    store, upstream, poller, streams, environment,
    imageMaxBytes: options.imageMaxBytes ?? defaults.imageMaxBytes,
    documentFileTypes,
    rateLimit: options.rateLimit ?? defaults.rateLimit,
    clientAddress: options.clientAddress ?? socketAddress,
    reportPdf: options.reportPdf ?? false,
    sse: { keepAliveMs: options.sse?.keepAliveMs ?? defaults.keepAliveMs, retryMs: options.sse?.retryMs ?? defaults.retryMs },
  }));
  api.route('/webhooks', webhookRoutes({ store, webhookKey: options.webhookKey }));
  if (options.adminKey) {
    api.route('/admin', createAdminRoutes({
      adminKey: options.adminKey,
      environment,
      kitVersion: KIT_VERSION,
      upstream,
      store: adminView(store),
    }));
  }

  // A shared store may hold onboardings created before this process started: keep polling them.
  if (options.resumePolling !== false) {
    store.listInProcess()
      .then((tokens) => tokens.forEach((t) => poller.track(t)))
      .catch((e: unknown) => logger.warn('could not resume polling', { error: e }));
  }

  // Retention: personal data is not kept longer than needed.
  const retentionMs = options.retentionMs ?? defaults.retentionMs;
  const maxAgeMs = options.maxAgeMs ?? defaults.maxAgeMs;
  const sweep = setInterval(() => {
    const now = Date.now();
    store.expire({ finishedBefore: new Date(now - retentionMs), createdBefore: new Date(now - maxAgeMs) })
      .then((n) => n && logger.info('expired onboardings deleted', { count: n }))
      .catch((e: unknown) => logger.warn('retention sweep failed', { error: e }));
  }, Math.min(60_000, Math.max(1_000, retentionMs / 4)));
  sweep.unref?.();

  const handle: CompanionHandle = {
    store,
    upstream,
    logger,
    openStreams: () => streams.size,
    async close() {
      clearInterval(sweep);
      poller.close();
      streams.closeAll();
      await store.close?.();
    },
  };
  return Object.assign(app, handle);
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
