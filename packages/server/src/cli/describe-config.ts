/**
 * `onboarding-companion --check`: the resolved configuration as `VARIABLE=value` lines, every
 * secret replaced by `[redacted]` (upstream credentials, webhook key, admin and API keys, notify
 * secrets, data keys, a Redis URL's credentials) and every URL shown without credentials or query.
 * Pure, so a test can feed it any configuration.
 */
import { COMPANION_DEFAULTS } from '../config/defaults.js';
import { BRAND_VARIABLES, type EnvConfig } from '../config/env-config.js';
import type { BrandField } from '../hosted/brand.js';
import { parseStoreUrl } from '../store/create-store.js';

const REDACTED = '[redacted]';

/** One line per variable, in the order docs/deploy.md lists them; `(default)` marks a value nobody set. */
export function describeEnvConfig(config: EnvConfig, env: Readonly<Record<string, string | undefined>>): string[] {
  const set = (name: string) => (env[name]?.trim() ?? '') !== '';
  const lines: string[] = [];
  const line = (name: string, value: string, given = set(name)) => lines.push(`${name}=${value}${given ? '' : '  (default)'}`);
  const embedded = config.baseUrl === undefined;

  line('ONBOARDING_ENVIRONMENT', config.environment);
  if (embedded) line('ONBOARDING_UPSTREAM', 'sandbox (embedded, at /sandbox)', set('ONBOARDING_UPSTREAM'));
  else line('ONBOARDING_BASE_URL', safeUrl(config.baseUrl!));
  const credential = (name: string) => line(name, set(name) ? REDACTED : embedded ? "the embedded sandbox's own" : '(unset)');
  credential('ONBOARDING_CLIENT');
  credential('ONBOARDING_SECRET');
  credential('ONBOARDING_WEBHOOK_KEY');
  line('ONBOARDING_ADMIN_KEY', config.adminKey === undefined ? '(unset)' : REDACTED);
  line(
    'ONBOARDING_API_KEYS',
    config.apiKeys.length === 0
      ? '(unset)'
      : config.apiKeys
          .map((k) => (typeof k === 'string' ? `${REDACTED} (scopes of the environment)` : `${REDACTED}:${k.scopes.join('+')}`))
          .join(', '),
  );
  line('ONBOARDING_SESSIONS', config.sessions);
  line('ONBOARDING_NOTIFY_URL', config.notify ? safeUrl(config.notify.url) : '(unset: no notifications are sent)');
  line('ONBOARDING_NOTIFY_SECRET', config.notify ? config.notify.secrets.map(() => REDACTED).join(', ') : '(unset)');
  line('ONBOARDING_PUBLIC_URL', config.publicUrl !== undefined ? safeUrl(config.publicUrl) : '(unset: the address listened on)');
  line('ONBOARDING_ALLOWED_ORIGINS', config.allowedOrigins.join(', ') || '(unset: same origin only)');
  line('ONBOARDING_IMAGE_MAX_BYTES', String(config.imageMaxBytes));
  line('ONBOARDING_RATE_LIMIT', String(config.rateLimit));
  line('ONBOARDING_TRUSTED_PROXIES', String(config.trustedProxies));
  line('ONBOARDING_CREATIONS_PER_CLIENT', String(config.creationsPerClient));
  line('ONBOARDING_STORE', safeStore(config.store));
  if (parseStoreUrl(config.store).kind === 'redis') line('ONBOARDING_REDIS_PREFIX', config.redisPrefix);
  line(
    'ONBOARDING_DATA_KEY',
    config.dataKey === undefined
      ? '(unset: personal data stored unencrypted)'
      : config.dataKey
          .split(',')
          .map((entry, i) => `${entry.trim().split(':')[0]}:${REDACTED}${i === 0 ? ' (encrypts)' : ''}`)
          .join(', '),
  );
  line('ONBOARDING_POLL_LEASE_MS', config.pollLeaseMs !== undefined ? String(config.pollLeaseMs) : String(COMPANION_DEFAULTS.pollLeaseMs));
  if ('file' in config.brand) line('ONBOARDING_BRAND_FILE', config.brand.file);
  else for (const [field, value] of Object.entries(config.brand.fields)) line(BRAND_VARIABLES[field as BrandField], String(value));
  line('ONBOARDING_LOG_FORMAT', config.logFormat);
  line('ONBOARDING_LOG_LEVEL', config.logLevel);
  line('PORT', String(config.port));
  line('HOST', config.host);
  if (embedded) {
    line('ONBOARDING_SANDBOX_CONTROL', config.sandboxControl ? '1' : '0');
    line('SANDBOX_PROCESSING_MS', config.sandboxProcessingMs !== undefined ? String(config.sandboxProcessingMs) : "the sandbox's own");
  }
  return lines;
}

/** A URL without its user, password, query and fragment, any of which may carry a credential. */
function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    const hidden = u.username || u.password ? `${REDACTED}@` : '';
    const tail = u.search || u.hash ? ` (query ${REDACTED})` : '';
    return `${u.protocol}//${hidden}${u.host}${u.pathname === '/' && !url.endsWith('/') ? '' : u.pathname}${tail}`;
  } catch {
    return REDACTED;
  }
}

/** The store as its kind and place: a Redis URL's credentials redacted, a SQLite path as given. */
function safeStore(store: string): string {
  const { kind, target } = parseStoreUrl(store);
  if (kind === 'memory') return 'memory';
  if (kind === 'sqlite') return `sqlite:${target}`;
  return safeUrl(store);
}
