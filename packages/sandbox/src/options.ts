/** Options, defaults and fault switches of the sandbox (documented in packages/sandbox/README.md). */
import type { AliasMap } from '@onboarding-kit/contract';

import type { SandboxClock } from './clock.js';

export type { AliasMap };
export type { SandboxClock };

export interface SandboxOptions {
  client?: string;
  secret?: string;
  /** Product webhook URL: onboarding status changes and finished standalone queries are POSTed here. */
  webhookUrl?: string;
  /** Value of the `id-service-token` header on every webhook. */
  webhookKey?: string;
  /** Time an onboarding stays IN_PROCESS before the automatic decision. */
  processingMs?: number;
  /** Access token lifetime, seconds (`expires_in`). */
  tokenTtlS?: number;
  /** Call aliases the product enables (default: whole catalog). */
  enabledServices?: readonly string[] | 'all';
  /** Per-product call aliases, e.g. `{ SERVICE_DIGITAL_DOCUMENTOSCOPY: 'SERVICE_DOCUMENTOSCOPY' }`. */
  aliases?: AliasMap;
  /** Mounts the unauthenticated `/__sandbox/*` control routes; only `true` mounts them (default false). */
  controlApi?: boolean;
  /** Delay of the standalone-query webhook after the HTTP answer ("about 10 seconds": docs/upstream-api.md#webhooks). */
  queryWebhookDelayMs?: number;
  /** Clock and timers of decisions, token lifetimes, document inspections and delayed webhooks (default: the real ones; tests pass one they move). */
  clock?: SandboxClock;
}

export interface Faults {
  /** Delay added before every answer (control API excepted). */
  latencyMs: number;
  /** Fraction (0..1) of service-api calls answered with the in-body 500; deterministic, not random. */
  errorRate: number;
  /** Every protected call answers the in-body 500 (token-history-onboarding: a real HTTP 500). */
  force500: boolean;
  /** Webhooks are not sent at all. */
  dropWebhooks: boolean;
  /** Every webhook is sent twice. */
  duplicateWebhooks: boolean;
}

export const DEFAULTS = {
  client: 'sandbox-client',
  secret: 'sandbox-secret',
  webhookKey: 'sandbox-webhook-key',
  processingMs: 3000,
  tokenTtlS: 300,
  queryWebhookDelayMs: 10_000,
  port: 8788,
  host: '127.0.0.1',
} as const;

export const NO_FAULTS: Readonly<Faults> = Object.freeze({
  latencyMs: 0,
  errorRate: 0,
  force500: false,
  dropWebhooks: false,
  duplicateWebhooks: false,
});

export interface ResolvedOptions {
  client: string;
  secret: string;
  webhookUrl: string | undefined;
  webhookKey: string;
  processingMs: number;
  tokenTtlS: number;
  enabledServices: readonly string[] | 'all';
  aliases: AliasMap;
  controlApi: boolean;
  queryWebhookDelayMs: number;
}

function nonNegative(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be a finite number >= 0`);
  return value;
}

export function resolveOptions(options: SandboxOptions = {}): ResolvedOptions {
  const tokenTtlS = nonNegative('tokenTtlS', options.tokenTtlS, DEFAULTS.tokenTtlS);
  if (tokenTtlS <= 0) throw new RangeError('tokenTtlS must be > 0');
  return {
    client: options.client ?? DEFAULTS.client,
    secret: options.secret ?? DEFAULTS.secret,
    webhookUrl: options.webhookUrl || undefined,
    webhookKey: options.webhookKey ?? DEFAULTS.webhookKey,
    processingMs: nonNegative('processingMs', options.processingMs, DEFAULTS.processingMs),
    tokenTtlS,
    enabledServices: options.enabledServices ?? 'all',
    aliases: options.aliases ?? {},
    controlApi: options.controlApi === true,
    queryWebhookDelayMs: nonNegative('queryWebhookDelayMs', options.queryWebhookDelayMs, DEFAULTS.queryWebhookDelayMs),
  };
}

/** Checks a partial fault set (from code or from the control API); returns an error message or null. */
export function faultsError(f: unknown): string | null {
  if (!f || typeof f !== 'object' || Array.isArray(f)) return 'faults must be a JSON object';
  for (const [key, value] of Object.entries(f)) {
    switch (key) {
      case 'latencyMs':
        if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 120_000)
          return 'latencyMs must be a number from 0 to 120000';
        break;
      case 'errorRate':
        if (typeof value !== 'number' || !(value >= 0 && value <= 1)) return 'errorRate must be a number from 0 to 1';
        break;
      case 'force500':
      case 'dropWebhooks':
      case 'duplicateWebhooks':
        if (typeof value !== 'boolean') return `${key} must be a boolean`;
        break;
      default:
        return `unknown fault "${key.slice(0, 40)}"`;
    }
  }
  return null;
}
