/**
 * `resolveConfig(options)`: the options of `createCompanion` checked (a bad one throws
 * `CompanionConfigError` naming every problem) and turned into the one configuration the
 * companion's services and routes read, every default applied here and nowhere else.
 */
import { IMAGE_ROLES, type AliasMap, type ImageRoleName } from '@onboarding-kit/contract';
import type { Context } from 'hono';
import { loadBrand, type Brand } from '../hosted/brand.js';
import { defaultElementDir } from '../hosted/hosted-assets.js';
import { createJsonLogger, type Logger } from '../logger.js';
import { clientAddressResolver, type BodyPace } from '../transport/index.js';
import type { CompanionOptions, Environment } from '../options.js';
import type { PollTimings } from '../relay/poller.js';
import type { InspectionChecks } from '../queries/inspection-rules.js';
import type { Timers } from '../relay/timers.js';
import type { Store } from '../store/index.js';
import type { UpstreamClient, UpstreamClientOptions } from '../upstream/upstream-client.js';
import { keyOf, settleKeyScopes, type ScopedApiKey } from '../auth/key-scopes.js';
import { systemResolveHost, type ResolveHost } from '../queries/image-url-hosts.js';
import { checkOptions } from './check-options.js';
import { COMPANION_DEFAULTS, INSPECTION_CHECKS, sessionsMode } from './defaults.js';

export interface CompanionConfig {
  readonly environment: Environment;
  /** The hosted page's brand, its logo read. */
  readonly brand: Brand;
  /** Where the element's built files are (null: not installed; the hosted page then answers 503). */
  readonly elementDir: string | null;
  /** The logger as given (or JSON lines on stdout); the services wrap it in redaction. */
  readonly logger: Logger;
  /** The secrets the options hold, redacted from every log line (the upstream client adds its own). */
  readonly secrets: readonly string[];
  /** A ready upstream client, or the options to build one. */
  readonly upstream: { readonly client: UpstreamClient } | { readonly options: Omit<UpstreamClientOptions, 'logger'> };
  readonly webhookKey: string;
  readonly adminKey?: string;
  /** Each API key with its scopes settled (a key given alone: the environment's default). */
  readonly apiKeys: readonly ScopedApiKey[];
  /** Creations need a session's client secret. */
  readonly sessionsRequired: boolean;
  readonly notify?: CompanionOptions['notify'];
  readonly publicUrl?: string;
  readonly handoffTtlMs?: number;
  /** Short-code attempts a minute from all addresses together. */
  readonly handoffCodeAttemptsPerMinute: number;
  /** The store as given (absent: a `MemoryStore` of the companion's own). */
  readonly store?: Store;
  /** The clock and timers tests inject (absent: the real ones). */
  readonly timers?: Timers;
  readonly poll: { readonly timings: Partial<PollTimings>; readonly takeOver: boolean };
  /** Consultations of pending asynchronous inspections. */
  readonly inspectionChecks: Readonly<InspectionChecks>;
  readonly retentionMs: number;
  readonly maxAgeMs: number;
  readonly sse: { readonly keepAliveMs: number; readonly retryMs: number };
  readonly shutdownGraceMs: number;
  /** Turns (transport/admission.ts), the pace a body keeps its turn at (transport/body-pace.ts), creations at once per client. */
  readonly creations: { readonly concurrent: number; readonly waiting: number; readonly perClient: number } & Readonly<BodyPace>;
  /** Creation bodies up to this size are kept between turns for reuse. */
  readonly keptBodyMaxBytes: number;
  readonly allowedOrigins: readonly string[];
  readonly imageMaxBytes: number;
  readonly documentFileTypes: Readonly<Record<ImageRoleName, string>>;
  readonly rateLimit: number;
  /** The client's address as every per-address limit counts it (an IPv6 one by its /64). */
  readonly clientAddress: (c: Context) => string;
  readonly reportPdf: boolean;
  readonly aliases?: AliasMap;
  /** Resolves the host names of image URLs before they are checked. */
  readonly resolveHost: ResolveHost;
}

/**
 * The retention a store opened before its companion must be given (Redis applies it as key
 * TTLs): the options' `retentionMs` and `maxAgeMs`, or their defaults, as the companion resolves them.
 */
export function storeRetention(o: Pick<CompanionOptions, 'retentionMs' | 'maxAgeMs'>): { finishedMs: number; maxAgeMs: number } {
  return { finishedMs: o.retentionMs ?? COMPANION_DEFAULTS.retentionMs, maxAgeMs: o.maxAgeMs ?? COMPANION_DEFAULTS.maxAgeMs };
}

export function resolveConfig(options: CompanionOptions): CompanionConfig {
  checkOptions(options);
  const o = options;
  const { finishedMs: retentionMs, maxAgeMs } = storeRetention(o);
  const concurrent = o.creations?.concurrent ?? COMPANION_DEFAULTS.creationsConcurrent();
  return {
    environment: o.environment ?? COMPANION_DEFAULTS.environment,
    // The brand is checked and its logo read here: a bad one stops the start, not a page later.
    brand: loadBrand(o.hostedPage?.brand ?? {}),
    elementDir: o.hostedPage?.elementDir ?? defaultElementDir(),
    logger: o.logger ?? createJsonLogger(),
    secrets: [
      o.secret,
      o.webhookKey,
      ...(o.adminKey ? [o.adminKey] : []),
      ...(o.apiKeys ?? []).map(keyOf),
      ...(o.notify ? (typeof o.notify.secret === 'string' ? [o.notify.secret] : o.notify.secret) : []),
    ],
    upstream: o.upstreamClient
      ? { client: o.upstreamClient }
      : { options: { ...o.upstream, baseUrl: o.baseUrl, client: o.client, secret: o.secret, ...(o.aliases && { aliases: o.aliases }) } },
    webhookKey: o.webhookKey,
    ...(o.adminKey && { adminKey: o.adminKey }),
    apiKeys: settleKeyScopes(o.apiKeys ?? [], COMPANION_DEFAULTS.apiKeyScopes(o.environment ?? COMPANION_DEFAULTS.environment)),
    sessionsRequired: sessionsMode(o) === 'required',
    ...(o.notify && { notify: o.notify }),
    ...(o.publicUrl && { publicUrl: o.publicUrl }),
    ...(o.handoff?.ttlMs !== undefined && { handoffTtlMs: o.handoff.ttlMs }),
    handoffCodeAttemptsPerMinute: o.handoff?.codeAttemptsPerMinute ?? COMPANION_DEFAULTS.handoffCodeAttemptsPerMinute,
    ...(o.store && { store: o.store }),
    ...(o.timers && { timers: o.timers }),
    poll: { timings: { maxDurationMs: maxAgeMs, ...o.poll }, takeOver: o.resumePolling !== false },
    inspectionChecks: { ...INSPECTION_CHECKS, ...o.inspectionChecks },
    retentionMs,
    maxAgeMs,
    sse: { keepAliveMs: o.sse?.keepAliveMs ?? COMPANION_DEFAULTS.keepAliveMs, retryMs: o.sse?.retryMs ?? COMPANION_DEFAULTS.retryMs },
    shutdownGraceMs:
      o.shutdownGraceMs ??
      (o.upstream?.timeoutMs ?? COMPANION_DEFAULTS.upstreamTimeoutMs) + COMPANION_DEFAULTS.shutdownGraceBeyondUpstreamMs,
    creations: {
      concurrent,
      waiting: o.creations?.waiting ?? concurrent * COMPANION_DEFAULTS.creationsWaitingPerTurn,
      bodyTimeoutMs: o.creations?.bodyTimeoutMs ?? COMPANION_DEFAULTS.creationBodyTimeoutMs,
      minBytesPerS: o.creations?.minBytesPerS ?? COMPANION_DEFAULTS.creationBodyMinBytesPerS,
      graceMs: o.creations?.graceMs ?? COMPANION_DEFAULTS.creationBodyGraceMs,
      perClient: o.creations?.perClient ?? COMPANION_DEFAULTS.creationsPerClient,
    },
    keptBodyMaxBytes: COMPANION_DEFAULTS.keptBodyMaxBytes,
    allowedOrigins: o.allowedOrigins ?? [],
    imageMaxBytes: o.imageMaxBytes ?? COMPANION_DEFAULTS.imageMaxBytes,
    documentFileTypes: Object.fromEntries(
      IMAGE_ROLES.map((r) => [r, o.documentFileTypes?.[r] ?? COMPANION_DEFAULTS.documentFileType]),
    ) as Record<ImageRoleName, string>,
    rateLimit: o.rateLimit ?? COMPANION_DEFAULTS.rateLimit,
    clientAddress: clientAddressResolver(o.trustedProxies ?? COMPANION_DEFAULTS.trustedProxies, o.clientAddress),
    reportPdf: o.reportPdf ?? false,
    ...(o.aliases && { aliases: o.aliases }),
    resolveHost: o.resolveHost ?? systemResolveHost,
  };
}
