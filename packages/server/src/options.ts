/**
 * Options of `createCompanion`: their defaults are in config/defaults.ts, their checks in
 * config/check-options.ts, and `resolveConfig()` (config/resolve-config.ts) turns them into the one
 * resolved configuration.
 */
import type { AliasMap, ImageRoleName } from '@onboarding-kit/contract';
import type { Context } from 'hono';
import type { ApiKeyInput } from './auth/key-scopes.js';
import type { BrandInput } from './hosted/brand.js';
import type { Logger } from './logger.js';
import type { PollTimings } from './relay/poller.js';
import type { InspectionChecks } from './queries/inspection-rules.js';
import type { Timers } from './relay/timers.js';
import type { Store } from './store/index.js';
import type { UpstreamClient, UpstreamClientOptions } from './upstream/upstream-client.js';

export type Environment = 'test' | 'production';

export interface CompanionOptions {
  /** Upstream `{base_url}` of the environment. */
  baseUrl: string;
  /** Upstream credentials. */
  client: string;
  secret: string;
  /** The agreed `id-service-token` of the upstream's webhooks. */
  webhookKey: string;
  /** Named in logs and in errors for support (default `test`). */
  environment?: Environment;
  /** Origins allowed to call the page API from a browser (default: none, same origin only). */
  allowedOrigins?: readonly string[];
  /** Decoded size limit per image (default 4 MiB). */
  imageMaxBytes?: number;
  /**
   * Creations at once (docs/page-api.md#limits-and-configuration): `concurrent` hold a body, from
   * its first byte read until the upstream has answered (default 4 per core of
   * `os.availableParallelism()`, at least 4); the others wait with their body unread, up to
   * `waiting` (default 16 times `concurrent`), and past that a creation is refused with 503
   * `busy`. Bounds the memory bodies take to `concurrent` of them; each turn lasts the upstream's
   * creation time, so raise `concurrent` for a slow upstream with many creations at once.
   *
   * A creation joins the line only once its body is arriving (one window's worth, or all of a
   * smaller body, within one window of its headers), and keeps its turn only while the body
   * arrives at a useful rate: all of it within `bodyTimeoutMs` (default 60 s), and at least
   * `minBytesPerS` (default 4 KiB/s) in every window of `graceMs` (default 2 s) from the first;
   * else 408 `upload_too_slow`, the connection is closed and the session's claim given back. At most `perClient` creations (default 4; 0 turns it off) run at
   * once from one client address (`clientAddress`) and on one session, counted in the store (so
   * across every instance on it); one more is refused with 429 `rate_limited` before anything is read.
   */
  creations?: {
    concurrent?: number;
    waiting?: number;
    bodyTimeoutMs?: number;
    minBytesPerS?: number;
    graceMs?: number;
    perClient?: number;
  };
  /** Onboarding creations per minute per client address; 0 turns it off (default 30). */
  rateLimit?: number;
  /**
   * The client's address for every per-address limit (default: the socket's, or the one
   * `trustedProxies` reads); when given, it wins over `trustedProxies`. An IPv6 address is counted by its /64.
   */
  clientAddress?: (c: Context) => string;
  /**
   * How many proxies of your own stand in front of the companion (default 0: the socket's address
   * is the client's). With N, the client's address is the Nth entry from the right of
   * `X-Forwarded-For` (or of RFC 7239 `Forwarded` when a request has no `X-Forwarded-For`); the
   * socket's when the header is missing or not an address there (docs/page-api.md#client-addresses).
   */
  trustedProxies?: number;
  /** `documentFiles[].documentFileType` per image role (default `OTHER` for each). */
  documentFileTypes?: Partial<Record<ImageRoleName, string>>;
  /** Serves `GET /v1/onboardings/{token}/report.pdf` (default false: the report holds personal data). */
  reportPdf?: boolean;
  /**
   * Enables the admin routes at `/v1/admin` (absent: off, 404); with `apiKeys` set, one more key
   * they accept. It carries the scopes `admin` and `reports`: it opens every admin route and
   * neither sessions nor queries.
   */
  adminKey?: string;
  /**
   * The integrator's backend API keys (docs/backend-api.md#api-keys): each at least 32
   * characters, several at once for rotation; only their hashes are kept. They enable
   * `/v1/sessions`, `/v1/queries` and the admin routes, each route group for the keys with its
   * scope (`sessions`, `queries`, `reports`, `admin`: docs/backend-api.md#scopes). A key given as
   * a string has every scope in test and `sessions` only in production.
   */
  apiKeys?: readonly ApiKeyInput[];
  /** `required`: creations need a session's client secret (401 without); default `required` in production, else `optional`. */
  sessions?: 'required' | 'optional';
  /**
   * Signed notifications to the integrator's backend (docs/backend-api.md#notifications). `secret`
   * (at least 32 characters) signs them; during a rotation pass both, and each event carries a
   * signature by each.
   */
  notify?: { url: string; secret: string | readonly string[]; timeoutMs?: number; fetch?: typeof fetch };
  /** The companion's public base URL, for session `url`s (default: the request's own origin). */
  publicUrl?: string;
  /**
   * The hosted capture page (docs/hosted-page.md), served with the sessions' routes at
   * `/capture/<token>` and the hand-off pages at `/h`: the integrator's look (`brand`, checked at
   * creation: a bad value or logo file throws `CompanionConfigError`), and where the element's
   * built script-tag files are (default: `dist/` of the installed `@onboarding-kit/element`).
   */
  hostedPage?: { brand?: BrandInput; elementDir?: string };
  /**
   * The hand-off between devices (docs/page-api.md#hand-off). `ttlMs`: how long a link and its
   * short code live unused (default 10 minutes, 1000 to 600000); meant for tests that must see a
   * link lapse, not for production. `codeAttemptsPerMinute`: short-code attempts a minute from
   * all addresses together (default 50), beside the 10 per address; the odds of a guessed code
   * grow with it (docs/page-api.md#guessing-a-code).
   */
  handoff?: { ttlMs?: number; codeAttemptsPerMinute?: number };
  /** Where state lives (default: in memory; `createStore()` builds the SQLite and Redis stores). */
  store?: Store;
  /** Structured logger (default: JSON lines on stdout). Everything it receives is redacted first. */
  logger?: Logger;
  /** Polling fallback timings and the polling lease. */
  poll?: Partial<PollTimings>;
  /**
   * Pending asynchronous inspections (docs/backend-api.md#asynchronous-inspections): the first
   * consultation's wait after the submission (default 5 s), the longest wait between two (5 min,
   * doubling from the first), when a pending one is given up as `failed` (24 h after submission)
   * and how often due ones are looked for (5 s).
   */
  inspectionChecks?: Partial<InspectionChecks>;
  /** Take over the store's IN_PROCESS onboardings that no live instance polls: after a restart, or when another instance died (default true). */
  resumePolling?: boolean;
  /** On `close()`, how long requests in flight may still run before the store is closed anyway (default: the upstream timeout + 1 s). */
  shutdownGraceMs?: number;
  /** Event streams: keep-alive comment interval (default 15 s) and reconnection hint (default 3 s). */
  sse?: { keepAliveMs?: number; retryMs?: number };
  /** Finished onboardings are deleted this long after their outcome (default 24 h). */
  retentionMs?: number;
  /** Any onboarding is deleted this long after creation, finished or not (default 48 h). */
  maxAgeMs?: number;
  /** Clock and timers of polling and the retention sweep (default: the real ones; tests pass a clock they move). */
  timers?: Timers;
  /** Call aliases of the product. */
  aliases?: AliasMap;
  /**
   * Every address of a host name, for the check of image URLs in queries (any private, loopback,
   * link-local or unique-local one refuses the URL: docs/backend-api.md#standalone-queries).
   * Default: the system resolver (`node:dns` lookup, all addresses); tests pass a stub.
   */
  resolveHost?: (hostname: string) => Promise<readonly string[]>;
  /** Fine-tuning of the upstream client (timeouts, retries, fetch). */
  upstream?: Omit<UpstreamClientOptions, 'baseUrl' | 'client' | 'secret' | 'aliases' | 'logger'>;
  /** A ready upstream client to use instead of building one (tests, integrators with their own). */
  upstreamClient?: UpstreamClient;
}

export { CompanionConfigError } from './config/config-error.js';
