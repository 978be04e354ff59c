/**
 * The companion's routes on its app, each capability mounted when its configuration enables it:
 * the page API and webhooks always; sessions, the hand-off, the hosted pages and queries with API
 * keys; the admin routes with an admin key or API keys (docs/page-api.md, docs/backend-api.md).
 */
import { prefillRoutes } from '../prefill/prefill-routes.js';
import { integrityRoutes } from '../integrity/integrity-routes.js';
import { NonceService } from '../integrity/nonce-service.js';
import { IntegrityService } from '../integrity/integrity-service.js';
import { sessionIntegrity } from '../integrity/integrity-view.js';
import { API_PREFIX } from '@onboarding-kit/contract';
import { Hono } from 'hono';
import type { BlankSchema } from 'hono/types';
import { createAdminRoutes } from '../admin/admin-routes.js';
import { requireAdminKey } from '../admin/auth.js';
import { COMPANION_DEFAULTS, SESSION_MAX_AGE_MS } from '../config/defaults.js';
import type { CompanionConfig } from '../config/resolve-config.js';
import { healthRoutes } from '../health/health-routes.js';
import { UpstreamReadiness } from '../health/upstream-readiness.js';
import { HostedAssets } from '../hosted/hosted-assets.js';
import { hostedRoutes } from '../hosted/hosted-routes.js';
import { defaultAnswerHeader } from '../transport/index.js';
import { requireApiKey } from '../auth/api-keys.js';
import type { CompanionEnv } from '../http/env.js';
import { companionErrorHandler, notFoundHandler } from '../http/error-handler.js';
import { requestFrame } from '../middleware/request-frame.js';
import { notificationAdminRoutes } from '../notifications/notification-routes.js';
import { onboardingRoutes } from '../onboardings/onboarding-routes.js';
import { openApiRoutes } from '../openapi/openapi-routes.js';
import { queryRoutes } from '../queries/query-routes.js';
import { webhookRoutes } from '../webhooks/webhook-routes.js';
import { handoffClaimRoutes, handoffPageRoutes } from '../handoff/handoff-routes.js';
import { pageSessionRoutes, sessionRoutes } from '../sessions/session-routes.js';
import type { Store } from '../store/index.js';
import type { SessionService } from '../sessions/session-service.js';
import { KIT_VERSION } from '../version.js';
import type { CompanionServices } from './services.js';

export function mountRoutes(app: Hono<CompanionEnv>, config: CompanionConfig, services: CompanionServices, stopping: () => boolean): void {
  const { logger } = services;
  const { environment } = config;
  // In flight, request id, request log, security headers, CORS: one middleware (middleware/request-frame.ts).
  app.use('*', requestFrame({ inFlight: services.inFlight, logger, allowedOrigins: config.allowedOrigins }));
  // The one error model for the page, webhook and admin routes (docs/page-api.md#error-shape).
  app.onError(companionErrorHandler({ logger, environment }));
  app.notFound(notFoundHandler);

  const api = app.basePath(API_PREFIX);
  api.use('*', async (c, next) => {
    await next();
    defaultAnswerHeader(c, 'Cache-Control', 'no-store');
  });
  // For load balancers and supervisors (docs/page-api.md#health): no authentication.
  api.route(
    '/',
    healthRoutes({
      store: services.store,
      stopping,
      upstream: new UpstreamReadiness({
        upstream: services.upstream,
        cacheMs: COMPANION_DEFAULTS.readyUpstreamCacheMs,
        waitMs: COMPANION_DEFAULTS.readyUpstreamWaitMs,
        logger,
      }),
    }),
  );
  // The API's own description (docs/openapi.json), open to anyone like the health check.
  api.route('/', openApiRoutes());
  mountPageApi(api, config, services);
  mountBackend(app, api, config, services);
  mountAdmin(api, config, services);
}

type Api = Hono<CompanionEnv, BlankSchema, typeof API_PREFIX>;

function mountPageApi(api: Api, config: CompanionConfig, s: CompanionServices): void {
  api.route(
    '/onboardings',
    onboardingRoutes({
      store: s.store,
      upstream: s.upstream,
      poller: s.poller,
      streams: s.streams,
      environment: config.environment,
      logger: s.logger,
      ...(s.sessions && { sessions: s.sessions }),
      ...(s.checks && { checks: s.checks }),
      ...(s.sessions && { integrity: integrityService(s, s.sessions) }),
      sessionsRequired: config.sessionsRequired,
      admission: s.admission,
      creations: config.creations,
      bodyBuffers: s.bodyBuffers,
      imageMaxBytes: config.imageMaxBytes,
      documentFileTypes: config.documentFileTypes,
      rateLimit: config.rateLimit,
      clientAddress: config.clientAddress,
      reportPdf: config.reportPdf,
      sse: config.sse,
    }),
  );
  api.route(
    '/webhooks',
    webhookRoutes({
      store: s.followedStore,
      webhookKey: config.webhookKey,
      reports: s.poller,
      clientAddress: config.clientAddress,
      ...(s.queries && { queries: s.queries }),
    }),
  );
}

/** The verification of a creation's capture integrity, with sessions only (nonces are a session's). */
const integrityService = (s: CompanionServices, sessions: SessionService): IntegrityService =>
  new IntegrityService({ store: s.store, now: () => sessions.now(), keepMs: SESSION_MAX_AGE_MS, logger: s.logger });

/** The integrator's backend (docs/backend-api.md): behind its API keys, never a page's secret. */
function mountBackend(app: Hono<CompanionEnv>, api: Api, config: CompanionConfig, s: CompanionServices): void {
  const { sessions, keyring, handoff, queries, lifecycle } = s;
  if (!sessions || !keyring || !handoff || !queries || !lifecycle) return;
  // The admin key is known here too, with its scopes: it gets 403 naming the scope, like any key without it.
  const also = config.adminKey ? { alsoAccept: config.adminKey } : {};
  api.route(
    '/sessions',
    sessionRoutes({ sessions, lifecycle, auth: requireApiKey(keyring, { scope: 'sessions', ...also }), environment: config.environment }),
  );
  api.route('/session', pageSessionRoutes({ sessions }));
  if (s.prefill) api.route('/session', prefillRoutes({ sessions, prefill: s.prefill, imageMaxBytes: config.imageMaxBytes }));
  api.route('/session', integrityRoutes({ sessions, nonces: new NonceService({ sessions }) }));
  // The hand-off between devices (docs/page-api.md#hand-off).
  const handoffDeps = {
    sessions,
    handoff,
    streams: s.streams,
    timers: s.timers,
    sse: config.sse,
    clientAddress: config.clientAddress,
    counters: s.store,
    codeAttemptsPerMinute: config.handoffCodeAttemptsPerMinute,
    logger: s.logger,
  };
  api.route('/session', handoffPageRoutes(handoffDeps));
  api.route('/handoff', handoffClaimRoutes(handoffDeps));
  // The hosted capture page and the hand-off pages (docs/hosted-page.md), outside the API prefix.
  app.route(
    '/',
    hostedRoutes({ sessions, brand: config.brand, assets: new HostedAssets(config.brand, config.elementDir), logger: s.logger }),
  );
  api.route(
    '/queries',
    queryRoutes({
      upstream: s.upstream,
      auth: requireApiKey(keyring, { scope: 'queries', ...also }),
      environment: config.environment,
      imageMaxBytes: config.imageMaxBytes,
      ...(config.aliases && { aliases: config.aliases }),
      resolveHost: config.resolveHost,
      requests: queries,
    }),
  );
}

function mountAdmin(api: Api, config: CompanionConfig, s: CompanionServices): void {
  const { adminKey } = config;
  const { keyring, notifier } = s;
  if (!adminKey && !keyring) return;
  if (notifier) {
    const adminAuth = keyring
      ? requireApiKey(keyring, { scope: 'admin', ...(adminKey && { alsoAccept: adminKey }) })
      : requireAdminKey(adminKey!);
    const outbox = new Hono<CompanionEnv>();
    outbox.use('/notifications', adminAuth);
    outbox.use('/notifications/*', adminAuth);
    outbox.route('/', notificationAdminRoutes({ notifier }));
    api.route('/admin', outbox);
  }
  api.route(
    '/admin',
    createAdminRoutes({
      ...(adminKey && { adminKey }),
      ...(keyring && { apiKeys: keyring }),
      environment: config.environment,
      kitVersion: KIT_VERSION,
      upstream: s.upstream,
      store: adminView(s.store),
    }),
  );
}

/** What the admin routes may read of the store: records without the access-key hash, with their session's checks and reading. */
function adminView(store: Store) {
  return {
    async get(token: string) {
      const record = await store.get(token);
      if (!record) return null;
      const { accessKeyHash: _hash, finishedAt: _finishedAt, ...view } = record;
      const session = record.sessionId ? await store.getSession(record.sessionId) : null;
      return {
        ...view,
        ...(session?.checks && { checks: session.checks }),
        ...(session?.documentReading && { documentReading: session.documentReading }),
        ...(session?.tokenOnboarding && !session.redactedAt && { integrity: sessionIntegrity(session) }),
        ...(session?.keyframes && { keyframes: session.keyframes }),
      };
    },
  };
}
