/** The companion's options from the `ONBOARDING_*` configuration: what `onboarding-companion` runs. */
import { apiKeyOf, type EnvConfig } from '../config/env-config.js';
import type { BrandInput } from '../hosted/brand.js';
import type { Logger } from '../logger.js';
import type { CompanionOptions } from '../options.js';
import type { Store } from '../store/index.js';

export interface RunningParts {
  /** The upstream's base URL: the configured one, or the embedded sandbox's. */
  baseUrl: string;
  /** Where people reach the companion: the configured public URL, or the address listened on. */
  publicUrl: string;
  brand: BrandInput;
  store?: Store;
  logger?: Logger;
}

export function companionOptions(config: EnvConfig, parts: RunningParts): CompanionOptions {
  return {
    baseUrl: parts.baseUrl,
    environment: config.environment,
    client: config.client,
    secret: config.secret,
    webhookKey: config.webhookKey,
    allowedOrigins: config.allowedOrigins,
    imageMaxBytes: config.imageMaxBytes,
    rateLimit: config.rateLimit,
    trustedProxies: config.trustedProxies,
    creations: { perClient: config.creationsPerClient },
    ...(parts.store && { store: parts.store }),
    ...(parts.logger && { logger: parts.logger }),
    ...(config.pollLeaseMs !== undefined && { poll: { leaseMs: config.pollLeaseMs } }),
    ...(config.adminKey !== undefined && { adminKey: config.adminKey }),
    ...(config.apiKeys.length > 0 && { apiKeys: config.apiKeys }),
    sessions: config.sessions,
    ...(config.notify && { notify: { url: config.notify.url, secret: config.notify.secrets } }),
    publicUrl: parts.publicUrl,
    hostedPage: { brand: parts.brand },
  };
}

/** Every secret the configuration holds, for the logger's redaction. */
export function configSecrets(config: EnvConfig): string[] {
  return [
    config.secret,
    config.webhookKey,
    ...(config.adminKey ? [config.adminKey] : []),
    // A Redis URL may carry a password.
    config.store,
    ...(config.dataKey ? [config.dataKey, ...config.dataKey.split(',').map((k) => k.slice(k.indexOf(':') + 1).trim())] : []),
    ...config.apiKeys.map(apiKeyOf),
    ...(config.notify ? config.notify.secrets : []),
  ];
}
