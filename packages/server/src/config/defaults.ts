/**
 * Every default, limit and duration of the companion, each named once: the defaults of the options
 * (docs/page-api.md#limits-and-configuration), the bounds the options are checked against, and
 * how long each kind of state is kept.
 */
import { DEFAULT_IMAGE_MAX_BYTES, HANDOFF_LIMITS, SESSION_LIMITS } from '@onboarding-kit/contract';
import { availableParallelism } from 'node:os';
import { API_KEY_SCOPES, type ApiKeyScope } from '../auth/key-scopes.js';

const SECOND_MS = 1_000;
const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** Finished onboardings, ended sessions and settled notifications are deleted this long after they settled (24 h). */
export const RETENTION_MS = DAY_MS;
/** Any onboarding is deleted, and no longer polled, this long after its creation, finished or not (48 h). */
export const MAX_AGE_MS = 2 * DAY_MS;
/** Idempotency keys and what they answered are kept this long, as Stripe does (24 h). */
export const IDEMPOTENCY_TTL_MS = DAY_MS;
/**
 * The longest a session lives before it ends (24 h), plus the longest its onboarding is followed,
 * plus retention (96 h): older sessions are purged whatever their state. An attested image's hash
 * is remembered as long, so a picture sent again under another nonce meanwhile is `replayed`.
 */
export const SESSION_MAX_AGE_MS = SESSION_LIMITS.maxExpiresInS * SECOND_MS + MAX_AGE_MS + RETENTION_MS;
/**
 * How long a creation that never finished holds its session's claim and its pending idempotency
 * key (2 min): far beyond the upstream calls a creation makes, so only a crashed one lapses.
 */
export const CREATION_HOLD_MS = 2 * MINUTE_MS;
/** How often an instance looks for open sessions past their time, to expire them and tell the backend (15 s). */
export const SESSION_SWEEP_EVERY_MS = 15 * SECOND_MS;
/**
 * How long a page may still read its session once the session ended (5 min): long enough for the
 * page to show the outcome and take the way back, short enough that a capture URL in a history, a
 * page secret left in a tab or a phone that was handed the flow no longer opens it. The
 * integrator's own client secret is not bound by it.
 */
export const PAGE_READ_GRACE_MS = 5 * MINUTE_MS;
/**
 * Pending asynchronous inspections (docs/backend-api.md#asynchronous-inspections): the upstream is
 * first consulted 5 s after the submission, then after doubling waits up to 5 min; a pending one
 * is looked for every 5 s, and given up (`failed`) 24 h after its submission.
 */
export const INSPECTION_CHECKS = {
  firstDelayMs: 5 * SECOND_MS,
  maxDelayMs: 5 * MINUTE_MS,
  giveUpAfterMs: DAY_MS,
  everyMs: 5 * SECOND_MS,
} as const;
/** A notification that could not be delivered is given up this long after its first try (72 h). */
export const NOTIFY_GIVE_UP_MS = 3 * DAY_MS;

/** What an option left out becomes (`CompanionOptions`). */
export const COMPANION_DEFAULTS = {
  environment: 'test',
  /**
   * The scopes of an API key given without any (docs/backend-api.md#scopes): in production only
   * `sessions`, so a leaked key opens no report and spends no query; in test every scope, so one
   * key serves a whole sandbox setup.
   */
  apiKeyScopes: (environment: string | undefined): readonly ApiKeyScope[] => (environment === 'production' ? ['sessions'] : API_KEY_SCOPES),
  /** Whether creations need a session's client secret: in production they do. */
  sessions: (environment: string | undefined): 'required' | 'optional' => (environment === 'production' ? 'required' : 'optional'),
  imageMaxBytes: DEFAULT_IMAGE_MAX_BYTES,
  /** Onboarding creations per minute per client address. */
  rateLimit: 30,
  documentFileType: 'OTHER',
  keepAliveMs: 15 * SECOND_MS,
  retryMs: 3 * SECOND_MS,
  retentionMs: RETENTION_MS,
  maxAgeMs: MAX_AGE_MS,
  /** Creations holding a body at once: 4 per core, at least 4. */
  creationsConcurrent: () => Math.max(4, 4 * availableParallelism()),
  /** Creations that may wait for a turn, per turn. */
  creationsWaitingPerTurn: 16,
  /** Longest time a creation's body may take to arrive once it has a turn; then 408 `upload_too_slow`. */
  creationBodyTimeoutMs: 60 * SECOND_MS,
  /** Least a creation's body must bring per second, measured over each window of `creationBodyGraceMs`; else 408. */
  creationBodyMinBytesPerS: 4 * 1024,
  /** The first window a body gets before its rate is judged, and the length of each window after it. */
  creationBodyGraceMs: 2 * SECOND_MS,
  /** Creations at once from one client address, and on one session. */
  creationsPerClient: 4,
  /** The largest creation body kept for reuse between turns (the usual body is a few MB; a larger one gets its own). */
  keptBodyMaxBytes: 8 * 1024 * 1024,
  /** The upstream client's timeout per call. */
  upstreamTimeoutMs: 15 * SECOND_MS,
  /** What `close()` grants requests in flight beyond the upstream timeout. */
  shutdownGraceBeyondUpstreamMs: SECOND_MS,
  /** How long a polling lease outlives an instance that stopped renewing it. */
  pollLeaseMs: 30 * SECOND_MS,
  /** Proxies of the integrator's own in front of the companion: none, the socket's address is the client's. */
  trustedProxies: 0,
  /**
   * Short-code attempts a minute from all addresses together. With 10,000 live codes of 23^8 and
   * 50 a minute, a day's guesses find 72,000 * 10^4 / 23^8 = 0.0092 codes (docs/page-api.md#guessing-a-code).
   */
  handoffCodeAttemptsPerMinute: 50,
  /** Hand-off offers (links with their codes) one session may make within a link's life. */
  handoffOffersPerSession: 5,
  /**
   * How long `GET /v1/ready` reuses its last upstream check (an access token obtained or not), so
   * that probing it often, by a balancer or anyone, costs the upstream's token route nothing more.
   */
  readyUpstreamCacheMs: 10 * SECOND_MS,
  /** How long `GET /v1/ready` waits for an upstream check under way before answering 503 `timeout` (the check goes on). */
  readyUpstreamWaitMs: 5 * SECOND_MS,
  /** Failed webhook authentications allowed per client address and window, before it gets 429. */
  webhookAuthFailures: { limit: 10, windowMs: MINUTE_MS },
} as const;

/** The bounds the options are checked against. */
export const OPTION_LIMITS = {
  adminKeyMinLength: 16,
  /** API keys and notification secrets. */
  secretMinLength: 32,
  /** The webhook key in production (the test product's key is the operator's to choose). */
  webhookKeyMinLength: 32,
  imageMaxBytesMin: 1024,
  pollLeaseMs: { min: 100, max: COMPANION_DEFAULTS.pollLeaseMs },
  handoffTtlMs: { min: SECOND_MS, max: HANDOFF_LIMITS.ttlS * SECOND_MS },
} as const;

/** Whether creations need a session: the option, else the default of the environment. */
export function sessionsMode(o: { sessions?: 'required' | 'optional'; environment?: string }): 'required' | 'optional' {
  return o.sessions ?? COMPANION_DEFAULTS.sessions(o.environment);
}

/** An instant check that failed for a technical reason the upstream calls retryable is tried this many times in all (docs/backend-api.md#checks). */
export const CHECK_ATTEMPTS = 3;
/** The wait before a check's next try (1 s, doubling). */
export const CHECK_RETRY_DELAY_MS = SECOND_MS;
/**
 * A check still pending this long after it was asked was interrupted: its companion stopped before
 * the answer was applied, and the photos it needed are gone. It reads as `failed` from then on
 * (docs/backend-api.md#checks). A document inspection, which its consults may keep pending for
 * `INSPECTION_CHECKS.giveUpAfterMs`, gets that long more.
 */
export const CHECK_INTERRUPTED_AFTER_MS = 10 * MINUTE_MS;
/** The page may ask the OCR for a document prefill this many times per session (docs/page-api.md#document-prefill). */
export const DOCUMENT_PREFILL_MAX = 3;
