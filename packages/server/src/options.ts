/** Options of `createCompanion`, with their defaults and the checks that fail fast on bad ones. */
import { DEFAULT_IMAGE_MAX_BYTES, HANDOFF_LIMITS, IMAGE_ROLES, isHttpUrl, type AliasMap, type ImageRoleName } from '@onboarding-kit/contract';
import { availableParallelism } from 'node:os';
import type { Context } from 'hono';
import type { BrandInput } from './hosted/brand.js';
import type { Logger } from './logger.js';
import type { PollTimings } from './relay/poller.js';
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
   */
  creations?: { concurrent?: number; waiting?: number };
  /** Onboarding creations per minute per client address; 0 turns it off (default 30). */
  rateLimit?: number;
  /** The client's address for the rate limit (default: the socket's; set it when behind a trusted proxy). */
  clientAddress?: (c: Context) => string;
  /** `documentFiles[].documentFileType` per image role (default `OTHER` for each). */
  documentFileTypes?: Partial<Record<ImageRoleName, string>>;
  /** Serves `GET /v1/onboardings/{token}/report.pdf` (default false: the report holds personal data). */
  reportPdf?: boolean;
  /** Enables the admin routes at `/v1/admin` (absent: off, 404); with `apiKeys` set, one more key they accept. */
  adminKey?: string;
  /**
   * The integrator's backend API keys (docs/backend-api.md#api-keys): each at least 32
   * characters, several at once for rotation; only their hashes are kept. They enable
   * `/v1/sessions`, `/v1/queries` and the admin routes.
   */
  apiKeys?: readonly string[];
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
   * link lapse, not for production.
   */
  handoff?: { ttlMs?: number };
  /** Where state lives (default: in memory; `createStore()` builds the SQLite and Redis stores). */
  store?: Store;
  /** Structured logger (default: JSON lines on stdout). Everything it receives is redacted first. */
  logger?: Logger;
  /** Polling fallback timings and the polling lease. */
  poll?: Partial<PollTimings>;
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
  /** Fine-tuning of the upstream client (timeouts, retries, fetch). */
  upstream?: Omit<UpstreamClientOptions, 'baseUrl' | 'client' | 'secret' | 'aliases' | 'logger'>;
  /** A ready upstream client to use instead of building one (tests, integrators with their own). */
  upstreamClient?: UpstreamClient;
}

export class CompanionConfigError extends Error {
  override readonly name = 'CompanionConfigError';
}

export function checkOptions(o: CompanionOptions): void {
  const problems: string[] = [];
  try {
    const u = new URL(o.baseUrl);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') problems.push('baseUrl must be an http(s) URL');
  } catch {
    problems.push('baseUrl must be an absolute URL');
  }
  for (const key of ['client', 'secret', 'webhookKey'] as const) if (typeof o[key] !== 'string' || !o[key]) problems.push(`${key} is required`);
  if (o.adminKey !== undefined && o.adminKey.length < 16) problems.push('adminKey must have at least 16 characters');
  for (const key of o.apiKeys ?? []) if (typeof key !== 'string' || key.length < 32 || /\s/.test(key)) problems.push('each API key must have at least 32 characters and no spaces');
  if (o.sessions !== undefined && o.sessions !== 'required' && o.sessions !== 'optional') problems.push("sessions must be 'required' or 'optional'");
  if ((o.sessions ?? (o.environment === 'production' ? 'required' : 'optional')) === 'required' && !o.apiKeys?.length) {
    problems.push('sessions are required (the default in production) but no apiKeys are set to open them');
  }
  if (o.notify !== undefined) {
    if (!isHttpUrl(o.notify.url)) problems.push('notify.url must be an absolute http(s) URL');
    const secrets = typeof o.notify.secret === 'string' ? [o.notify.secret] : [...(o.notify.secret ?? [])];
    if (secrets.length === 0 || secrets.some((s) => typeof s !== 'string' || s.length < 32)) problems.push('notify.secret must have at least 32 characters');
  }
  if (o.publicUrl !== undefined && !isHttpUrl(o.publicUrl)) problems.push('publicUrl must be an absolute http(s) URL');
  if (o.environment !== undefined && o.environment !== 'test' && o.environment !== 'production') problems.push("environment must be 'test' or 'production'");
  if (o.imageMaxBytes !== undefined && (!Number.isInteger(o.imageMaxBytes) || o.imageMaxBytes < 1024)) problems.push('imageMaxBytes must be an integer of at least 1024');
  if (o.rateLimit !== undefined && (!Number.isInteger(o.rateLimit) || o.rateLimit < 0)) problems.push('rateLimit must be a whole number, 0 for off');
  if (o.creations?.concurrent !== undefined && !(Number.isInteger(o.creations.concurrent) && o.creations.concurrent >= 1)) problems.push('creations.concurrent must be a whole number of at least 1');
  if (o.creations?.waiting !== undefined && !(Number.isInteger(o.creations.waiting) && o.creations.waiting >= 0)) problems.push('creations.waiting must be a whole number, 0 for none');
  // A lease that outlives its instance longer delays the takeover of its onboardings just as long.
  if (o.poll?.leaseMs !== undefined && !(o.poll.leaseMs >= 100 && o.poll.leaseMs <= 30_000)) problems.push('poll.leaseMs must be from 100 to 30000');
  if (o.handoff?.ttlMs !== undefined && !(Number.isInteger(o.handoff.ttlMs) && o.handoff.ttlMs >= 1000 && o.handoff.ttlMs <= HANDOFF_LIMITS.ttlS * 1000)) problems.push(`handoff.ttlMs must be a whole number from 1000 to ${HANDOFF_LIMITS.ttlS * 1000}`);
  if (o.shutdownGraceMs !== undefined && !(o.shutdownGraceMs >= 0)) problems.push('shutdownGraceMs must be 0 or more');
  for (const origin of o.allowedOrigins ?? []) {
    try {
      if (new URL(origin).origin !== origin.replace(/\/+$/, '')) problems.push(`allowed origin "${origin}" must be scheme://host[:port] only`);
    } catch {
      problems.push(`allowed origin "${origin}" is not a URL`);
    }
  }
  for (const role of Object.keys(o.documentFileTypes ?? {})) if (!(IMAGE_ROLES as readonly string[]).includes(role)) problems.push(`documentFileTypes has an unknown role "${role}"`);
  if (problems.length) throw new CompanionConfigError(`Invalid companion options: ${problems.join('; ')}.`);
}


export const defaults = {
  environment: 'test' as Environment,
  imageMaxBytes: DEFAULT_IMAGE_MAX_BYTES,
  rateLimit: 30,
  documentFileType: 'OTHER',
  keepAliveMs: 15_000,
  retryMs: 3_000,
  retentionMs: 24 * 3600_000,
  maxAgeMs: 48 * 3600_000,
  /** Creations holding a body at once: 4 per core, at least 4. */
  creationsConcurrent: () => Math.max(4, 4 * availableParallelism()),
  /** Creations that may wait for a turn, per turn. */
  creationsWaitingPerTurn: 16,
  /** The upstream client's own default per call (upstream/upstream-client.ts). */
  upstreamTimeoutMs: 15_000,
};
