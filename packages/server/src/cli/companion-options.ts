/**
 * What a runner of the companion makes of the `ONBOARDING_*` configuration: the brand, the
 * companion's and the embedded sandbox's options, and the secrets its logger redacts. Shared by
 * `onboarding-companion` and `npm start`'s demo, which adds its own backend on top.
 */
import { apiKeyOf, BRAND_VARIABLES, type EnvConfig } from '../config/env-config.js';
import { loadBrand, readBrandFile, type BrandInput } from '../hosted/brand.js';
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

/** The hosted page's brand: its file read and its logo checked now, so a bad one stops the start (throws, naming the variable). */
export function configuredBrand(config: EnvConfig): BrandInput {
  const file = 'file' in config.brand ? config.brand.file : undefined;
  const brand = file !== undefined ? readBrandFile(file) : (config.brand as { fields: BrandInput }).fields;
  loadBrand(brand, (field) => (file !== undefined ? `"${field}" of ONBOARDING_BRAND_FILE (${file})` : BRAND_VARIABLES[field]));
  return brand;
}

/**
 * The embedded sandbox's options (createSandbox of `@onboarding-kit/sandbox`, an optional peer
 * whose types this package does not name), its webhooks sent to the companion at `companionUrl`.
 */
export function sandboxOptions(config: EnvConfig, companionUrl: string) {
  return {
    client: config.client,
    secret: config.secret,
    webhookKey: config.webhookKey,
    webhookUrl: `${companionUrl}/v1/webhooks`,
    // Unauthenticated faults and verdicts: mounted only when ONBOARDING_SANDBOX_CONTROL=1 asks.
    controlApi: config.sandboxControl,
    ...(config.sandboxProcessingMs !== undefined && { processingMs: config.sandboxProcessingMs }),
  };
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
