/**
 * The companion's services, built from its resolved configuration: the redacting logger, the
 * upstream client, the store, sessions and notifications when enabled, polling, event streams,
 * creation turns and the retention sweep. Polling, the session sweep and the retention sweep run
 * from here on.
 */
import type { Outcome } from '@onboarding-kit/contract';
import { Admission, BodyBuffers } from '../transport/index.js';
import { ApiKeyring } from '../auth/api-keys.js';
import { InFlight } from '../lifecycle/in-flight.js';
import { RetentionSweep } from '../lifecycle/retention-sweep.js';
import { redactingLogger, type Logger } from '../logger.js';
import { Notifier } from '../notifications/outbox.js';
import { StatusPoller } from '../relay/poller.js';
import { StreamRegistry } from '../relay/stream-registry.js';
import { realTimers, type Timers } from '../relay/timers.js';
import { HandoffService } from '../handoff/handoff-service.js';
import { QueryService } from '../queries/query-service.js';
import { CheckService } from '../checks/check-service.js';
import { CHECK_ATTEMPTS, CHECK_RETRY_DELAY_MS, DOCUMENT_PREFILL_MAX } from '../config/defaults.js';
import { PrefillService } from '../prefill/prefill-service.js';
import { ASYNC_CONSULT } from '../queries/query-rules.js';
import { SessionService } from '../sessions/session-service.js';
import { LifecycleService } from '../sessions/lifecycle-service.js';
import { withStatusHook } from '../sessions/status-hook.js';
import { MemoryStore, type Store } from '../store/index.js';
import { createUpstreamClient, type UpstreamClient } from '../upstream/upstream-client.js';
import type { CompanionConfig } from '../config/resolve-config.js';

export interface CompanionServices {
  readonly logger: Logger;
  readonly upstream: UpstreamClient;
  readonly store: Store;
  /** The store whose status changes complete the session of their onboarding. */
  readonly followedStore: Store;
  readonly timers: Timers;
  readonly keyring?: ApiKeyring;
  readonly notifier?: Notifier;
  readonly sessions?: SessionService;
  /** With sessions and API keys: the hand-off between devices. */
  readonly handoff?: HandoffService;
  /** With API keys: standalone query requests, and asynchronous inspections followed to their end. */
  readonly queries?: QueryService;
  /** With sessions and API keys: the instant checks a session asks for. */
  readonly checks?: CheckService;
  /** With sessions and API keys: the page's document prefill. */
  readonly prefill?: PrefillService;
  /** With sessions and API keys: cancelling, redacting and listing sessions. */
  readonly lifecycle?: LifecycleService;
  readonly poller: StatusPoller;
  readonly streams: StreamRegistry;
  readonly inFlight: InFlight;
  readonly admission: Admission;
  readonly bodyBuffers: BodyBuffers;
  readonly sweep: RetentionSweep;
}

export function buildServices(config: CompanionConfig): CompanionServices {
  let upstream: UpstreamClient | undefined;
  // Every log line passes through redaction with the exact secrets we hold, whoever the logger is.
  const logger = redactingLogger(config.logger.child({ environment: config.environment }), () => [
    ...config.secrets,
    ...(upstream?.secrets() ?? []),
  ]);
  upstream = 'client' in config.upstream ? config.upstream.client : createUpstreamClient({ ...config.upstream.options, logger });
  const store: Store = config.store ?? new MemoryStore();
  warnIfUnsealed(config, store, logger);
  const timers = config.timers ?? realTimers;
  const keyring = config.apiKeys.length ? ApiKeyring.from(config.apiKeys) : undefined;
  const notifier = buildNotifier(config, store, logger, timers);
  // Sessions need API keys to be opened; the service also sweeps the outbox's old entries.
  const sessions =
    keyring || notifier
      ? new SessionService({
          store,
          timers,
          logger,
          retentionMs: config.retentionMs,
          readReport: (t) => upstream.report(t),
          ...(notifier && { notifier }),
          ...(config.publicUrl && { publicUrl: config.publicUrl }),
        })
      : undefined;
  // Status changes, wherever they are applied, complete the session of their onboarding.
  const followedStore: Store = sessions
    ? withStatusHook(store, (record, update) => sessions.onboardingChanged(record, { services: update.services }), logger)
    : store;
  const client = upstream;
  // A shared store may hold onboardings created elsewhere or before this process: the poller takes over those nobody polls.
  const poller = new StatusPoller({
    store: followedStore,
    report: (t) => client.report(t),
    logger,
    timings: config.poll.timings,
    takeOver: config.poll.takeOver,
    ...(config.timers && { timers: config.timers }),
  });
  const { concurrent, waiting } = config.creations;
  const handoff =
    sessions && keyring
      ? new HandoffService({ sessions, logger, ...(config.handoffTtlMs !== undefined && { ttlMs: config.handoffTtlMs }) })
      : undefined;
  sessions?.start();
  const { queries, checks, prefill } = keyring
    ? queriesAndChecks(config, { store, upstream: client, logger, timers, ...(notifier && { notifier }) }, sessions)
    : {};
  return {
    logger,
    upstream,
    store,
    followedStore,
    timers,
    ...(keyring && { keyring }),
    ...(notifier && { notifier }),
    ...(sessions && { sessions }),
    ...(handoff && { handoff }),
    ...(queries && { queries }),
    ...(checks && { checks }),
    ...(prefill && { prefill }),
    ...(sessions && keyring && { lifecycle: new LifecycleService({ sessions, logger, ...(notifier && { notifier }) }) }),
    poller,
    streams: new StreamRegistry(),
    inFlight: new InFlight(),
    admission: new Admission({ concurrent, waiting }),
    // One body buffer kept per turn at most.
    bodyBuffers: new BodyBuffers({ maxKept: concurrent, maxBytes: config.keptBodyMaxBytes }),
    // Retention: personal data is not kept longer than needed.
    sweep: new RetentionSweep({
      store,
      retentionMs: config.retentionMs,
      maxAgeMs: config.maxAgeMs,
      logger,
      ...(config.timers && { timers: config.timers }),
    }),
  };
}

function buildNotifier(config: CompanionConfig, store: Store, logger: Logger, timers: Timers): Notifier | undefined {
  if (!config.notify) return undefined;
  return new Notifier({
    store,
    url: config.notify.url,
    secret: config.notify.secret,
    environment: config.environment,
    logger,
    timers,
    ...(config.notify.timeoutMs !== undefined && { timeoutMs: config.notify.timeoutMs }),
    ...(config.notify.fetch && { fetch: config.notify.fetch }),
  });
}

/** Standalone queries, and with sessions their instant checks (whose inspections the queries' schedule follows) and the document prefill. */
function queriesAndChecks(
  config: CompanionConfig,
  deps: { store: Store; upstream: UpstreamClient; logger: Logger; timers: Timers; notifier?: Notifier },
  sessions: SessionService | undefined,
): { queries: QueryService; checks?: CheckService; prefill?: PrefillService } {
  let checks: CheckService | undefined;
  const queries = queryService(config, {
    ...deps,
    sessionInspectionEnded: (id, outcome) => checks?.inspectionEnded(id, outcome) ?? Promise.resolve(),
  });
  if (!sessions) return { queries };
  checks = checkService(sessions, queries, deps.upstream, deps.logger, deps.timers);
  const prefill = new PrefillService({
    sessions,
    query: anyQuery(deps.upstream),
    environment: config.environment,
    logger: deps.logger,
    max: DOCUMENT_PREFILL_MAX,
  });
  return { queries, checks, prefill };
}

/** The client's `query` for any service by name; the catalog typing asks for every field of every service. */
const anyQuery = (upstream: UpstreamClient) =>
  upstream.query.bind(upstream) as unknown as (service: string, fields: Record<string, string>) => Promise<Outcome>;

/** The checks of sessions: a session's inspection left running is followed as a query request of the session. */
function checkService(sessions: SessionService, queries: QueryService, upstream: UpstreamClient, logger: Logger, timers: Timers) {
  return new CheckService({
    sessions,
    query: anyQuery(upstream),
    followInspection: ({ sessionId, key, outcome }) =>
      queries.answered({ service: 'SERVICE_DIGITAL_DOCUMENTOSCOPY', key, outcome, notify: false, sessionId }),
    logger,
    timers,
    attempts: CHECK_ATTEMPTS,
    retryDelayMs: CHECK_RETRY_DELAY_MS,
  });
}

/** Standalone query requests, their inspections consulted through the upstream's consult service; its schedule started. */
function queryService(
  config: CompanionConfig,
  deps: {
    store: Store;
    upstream: UpstreamClient;
    logger: Logger;
    timers: Timers;
    notifier?: Notifier;
    sessionInspectionEnded: (sessionId: string, outcome: Outcome | undefined) => Promise<void>;
  },
): QueryService {
  const query = anyQuery(deps.upstream);
  const service = new QueryService({
    store: deps.store,
    // A session's inspection is consulted with the session's CPF, as each of its checks is sent.
    consult: async (key, request) => {
      const session = request.sessionId ? await deps.store.getSession(request.sessionId) : null;
      const fields: Record<string, string> = { key };
      if (session?.taxId?.kind === 'cpf') fields.cpf = session.taxId.value;
      return query(ASYNC_CONSULT, fields);
    },
    sessionInspectionEnded: deps.sessionInspectionEnded,
    ...(deps.notifier && { notifier: deps.notifier }),
    logger: deps.logger,
    timers: deps.timers,
    checks: config.inspectionChecks,
    retentionMs: config.retentionMs,
    maxAgeMs: config.maxAgeMs,
  });
  service.start();
  return service;
}

/** Not refused: a store on an encrypted disk may be protection enough, and that is the operator's call. */
function warnIfUnsealed(config: CompanionConfig, store: Store, logger: Logger): void {
  if (config.environment === 'production' && store.sealsPersonalData !== true)
    logger.warn(
      'the store keeps personal data unencrypted: open it with a dataKey (ONBOARDING_DATA_KEY) to seal CPFs, names and notification bodies at rest',
    );
}
