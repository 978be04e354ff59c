/**
 * The `ONBOARDING_*` environment variables (docs/deploy.md#environment-variables), read and
 * checked in one place for both runners: `onboarding-companion` (the companion alone) and
 * `npm start` (the companion with the demo). Pure: no I/O, every problem collected and named in
 * a message that says what to fix, never quoting a secret.
 */
import { isHttpUrl } from '@onboarding-kit/contract';
import { parseApiKeyEntry, type ApiKeyInput } from '../auth/key-scopes.js';
import { checkBrandFields, type BrandField, type BrandInput } from '../hosted/brand.js';
import type { LogFormat, LogLevel } from '../logger.js';
import { isLoopbackHost, plainHttpRefused } from '../net/address-rules.js';
import { DEFAULT_STORE_URL, parseStoreUrl } from '../store/create-store.js';
import { parseDataKeys } from '../store/rules/personal-data.js';
import { COMPANION_DEFAULTS, OPTION_LIMITS } from './defaults.js';
import { list, readChoice, readFlag, reader, readSecrets, type EnvRunner, type Reader } from './env-reader.js';

export type { EnvRunner } from './env-reader.js';

export interface EnvConfig {
  /** Unset: the embedded sandbox serves as upstream (`ONBOARDING_UPSTREAM=sandbox`, or `npm start` without `ONBOARDING_BASE_URL`). */
  baseUrl?: string;
  environment: 'test' | 'production';
  client: string;
  secret: string;
  webhookKey: string;
  adminKey?: string;
  allowedOrigins: string[];
  imageMaxBytes: number;
  rateLimit: number;
  /** `ONBOARDING_TRUSTED_PROXIES`: proxies of your own in front of the companion, whose `X-Forwarded-For` names the client (default 0). */
  trustedProxies: number;
  /** `ONBOARDING_CREATIONS_PER_CLIENT`: creations under way at once per client address and per session (0: off; default 4). */
  creationsPerClient: number;
  port: number;
  host: string;
  /** `ONBOARDING_STORE`: `sqlite:<path>`, `redis://...` / `rediss://...` or `memory` (default `sqlite:./data/onboarding-kit.db`). */
  store: string;
  /** `ONBOARDING_REDIS_PREFIX`: key prefix in Redis (default `okit:`). */
  redisPrefix: string;
  /** `ONBOARDING_DATA_KEY`: encrypts personal data in the store, `<id>:<base64 of 32 bytes>[,<id>:<key>...]` (unset: stored as given). */
  dataKey?: string;
  /** `ONBOARDING_POLL_LEASE_MS`: how long a dead instance's polling leases outlive it (100 to 30000; unset: the companion's 30 s). */
  pollLeaseMs?: number;
  /**
   * Embedded sandbox only: `ONBOARDING_SANDBOX_CONTROL=1` mounts its unauthenticated control
   * routes (`/sandbox/__sandbox/*`: faults, decisions); unset, they are not mounted.
   */
  sandboxControl: boolean;
  /** Embedded sandbox only: its processing time (`SANDBOX_PROCESSING_MS`, default 3000). */
  sandboxProcessingMs?: number;
  /** `ONBOARDING_API_KEYS`: the integrator's backend keys, each `<key>` or `<key>:<scope>+<scope>`. */
  apiKeys: ApiKeyInput[];
  /** `ONBOARDING_SESSIONS`: whether a creation needs a session (default `required` in production, else `optional`). */
  sessions: 'required' | 'optional';
  /** `ONBOARDING_NOTIFY_URL` and `ONBOARDING_NOTIFY_SECRET` (several while rotating). */
  notify?: { url: string; secrets: string[] };
  /** `ONBOARDING_PUBLIC_URL`: the companion's public base URL; unset: the address it listens on. */
  publicUrl?: string;
  /**
   * The hosted page's brand: `ONBOARDING_BRAND_*` (values checked here; the logo file is read at
   * start), or `ONBOARDING_BRAND_FILE`, a JSON file with the same members (read and checked at start).
   */
  brand: { fields: BrandInput } | { file: string };
  /** `ONBOARDING_LOG_FORMAT`: `json` (one object per line) or `text` (default `json`). */
  logFormat: LogFormat;
  /** `ONBOARDING_LOG_LEVEL`: `debug`, `info`, `warn` or `error` (default `info`). */
  logLevel: LogLevel;
}

export type EnvConfigResult = { ok: true; config: EnvConfig } | { ok: false; errors: string[] };

/** The variable of each brand member (docs/hosted-page.md#branding). */
export const BRAND_VARIABLES: Record<BrandField, string> = {
  name: 'ONBOARDING_BRAND_NAME',
  logo: 'ONBOARDING_BRAND_LOGO',
  color: 'ONBOARDING_BRAND_COLOR',
  colorOnPrimary: 'ONBOARDING_BRAND_ON_COLOR',
  background: 'ONBOARDING_BRAND_BACKGROUND',
  textColor: 'ONBOARDING_BRAND_TEXT_COLOR',
  radius: 'ONBOARDING_BRAND_RADIUS',
};

/** The embedded sandbox's credentials when none are given: the runner creates the sandbox with the same ones. */
export const SANDBOX_CREDENTIALS = { client: 'sandbox-client', secret: 'sandbox-secret', webhookKey: 'sandbox-webhook-key' };

/** Where both runners listen when PORT and HOST are unset. */
const ENV_DEFAULTS = { port: 8787, host: '127.0.0.1' } as const;

const LOG_FORMATS: readonly LogFormat[] = ['json', 'text'];
const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/** Every variable read and checked: the configuration, or every problem found. */
export function readEnvConfig(env: Readonly<Record<string, string | undefined>>, options: { runner: EnvRunner }): EnvConfigResult {
  const r = reader(env, options.runner);
  const { errors, get, integer } = r;
  const { baseUrl, environment, client, secret, webhookKey } = readUpstream(r);
  const adminKey = get('ONBOARDING_ADMIN_KEY');
  if (adminKey !== undefined && adminKey.length < OPTION_LIMITS.adminKeyMinLength) {
    errors.push(`ONBOARDING_ADMIN_KEY must have at least ${OPTION_LIMITS.adminKeyMinLength} characters (use a long random value).`);
  }
  const allowedOrigins = readOrigins(r);

  const imageMaxBytes = integer(
    'ONBOARDING_IMAGE_MAX_BYTES',
    COMPANION_DEFAULTS.imageMaxBytes,
    OPTION_LIMITS.imageMaxBytesMin,
    64 * 1024 * 1024,
  );
  const rateLimit = integer('ONBOARDING_RATE_LIMIT', COMPANION_DEFAULTS.rateLimit, 0, 1_000_000);
  const trustedProxies = integer('ONBOARDING_TRUSTED_PROXIES', COMPANION_DEFAULTS.trustedProxies, 0, 16);
  const creationsPerClient = integer('ONBOARDING_CREATIONS_PER_CLIENT', COMPANION_DEFAULTS.creationsPerClient, 0, 1_000_000);
  const port = integer('PORT', ENV_DEFAULTS.port, 0, 65535);
  const host = get('HOST') ?? ENV_DEFAULTS.host;
  const sandboxControl = readFlag(r, 'ONBOARDING_SANDBOX_CONTROL');
  if (baseUrl === undefined && !isLoopbackHost(host)) {
    // The embedded sandbox answers with well-known test credentials and stands in for the upstream's verdicts.
    errors.push(
      `HOST=${host.slice(0, 60)} would expose the embedded sandbox beyond this machine: keep HOST on a loopback address (127.0.0.1, ::1, localhost), or set ONBOARDING_BASE_URL to a real upstream.`,
    );
  }
  const processing = get('SANDBOX_PROCESSING_MS') !== undefined ? integer('SANDBOX_PROCESSING_MS', 3000, 0, 600_000) : undefined;
  const lease = OPTION_LIMITS.pollLeaseMs;
  const pollLeaseMs =
    get('ONBOARDING_POLL_LEASE_MS') !== undefined
      ? integer('ONBOARDING_POLL_LEASE_MS', COMPANION_DEFAULTS.pollLeaseMs, lease.min, lease.max)
      : undefined;
  const { store, redisPrefix, dataKey } = readStore(r);
  const apiKeys = readApiKeys(r);

  const sessions = readSessions(r, environment, apiKeys);
  const { notify, publicUrl } = readAddresses(r, environment, host);
  const brand = readBrand(r);
  const logFormat = readChoice(r, 'ONBOARDING_LOG_FORMAT', LOG_FORMATS, 'json');
  const logLevel = readChoice(r, 'ONBOARDING_LOG_LEVEL', LOG_LEVELS, 'info');

  if (errors.length) return { ok: false, errors };
  return {
    ok: true,
    config: {
      ...(baseUrl !== undefined && { baseUrl: baseUrl.replace(/\/+$/, '') }),
      environment: environment as 'test' | 'production',
      client: client ?? SANDBOX_CREDENTIALS.client,
      secret: secret ?? SANDBOX_CREDENTIALS.secret,
      webhookKey: webhookKey ?? SANDBOX_CREDENTIALS.webhookKey,
      ...(adminKey !== undefined && { adminKey }),
      allowedOrigins,
      imageMaxBytes,
      rateLimit,
      trustedProxies,
      creationsPerClient,
      port,
      host,
      store,
      redisPrefix,
      ...(dataKey !== undefined && { dataKey }),
      ...(pollLeaseMs !== undefined && { pollLeaseMs }),
      sandboxControl,
      ...(processing !== undefined && { sandboxProcessingMs: processing }),
      apiKeys,
      sessions,
      ...(notify && { notify }),
      ...(publicUrl !== undefined && { publicUrl: publicUrl.replace(/\/+$/, '') }),
      brand,
      logFormat,
      logLevel,
    },
  };
}

/** `ONBOARDING_SESSIONS`; the companion alone also needs a key to open sessions with when they are required. */
function readSessions(r: Reader, environment: string, apiKeys: readonly ApiKeyInput[]): 'required' | 'optional' {
  const given = r.get('ONBOARDING_SESSIONS');
  const sessions = given ?? COMPANION_DEFAULTS.sessions(environment);
  if (sessions !== 'required' && sessions !== 'optional') {
    r.errors.push(`ONBOARDING_SESSIONS must be "required" or "optional" (got "${sessions.slice(0, 40)}").`);
    return 'optional';
  }
  if (sessions === 'required' && apiKeys.length === 0 && r.runner === 'companion')
    // Without a key nobody can open a session, and every creation would be refused.
    r.errors.push(
      `ONBOARDING_API_KEYS is required when sessions are required (ONBOARDING_SESSIONS=required${given === undefined ? ', the default in production' : ''}): your backend opens the sessions with it.`,
    );
  return sessions;
}

/** Where notifications go and where people reach the companion: https in production, except on a loopback host. */
function readAddresses(r: Reader, environment: string, host: string): { notify: EnvConfig['notify']; publicUrl: string | undefined } {
  const { errors, get } = r;
  const notify = readNotify(r);
  const publicUrl = get('ONBOARDING_PUBLIC_URL');
  if (publicUrl !== undefined && !isHttpUrl(publicUrl))
    errors.push(`ONBOARDING_PUBLIC_URL must be an absolute http(s) URL (got "${publicUrl.slice(0, 80)}").`);
  else if (publicUrl !== undefined && plainHttpRefused(publicUrl, environment))
    errors.push('ONBOARDING_PUBLIC_URL must be https in production (plain http only on a loopback host).');
  else if (publicUrl === undefined && environment === 'production' && !isLoopbackHost(host))
    // Unset, it is the address listened on, over plain http: the sessions' URLs would send people there in clear.
    errors.push(
      'ONBOARDING_PUBLIC_URL is required in production when HOST is not a loopback address: the https URL people reach the companion at.',
    );
  if (notify !== undefined && isHttpUrl(notify.url) && plainHttpRefused(notify.url, environment))
    errors.push('ONBOARDING_NOTIFY_URL must be https in production (plain http only on a loopback host).');
  return { notify, publicUrl };
}

/**
 * The upstream: a real one at ONBOARDING_BASE_URL, whose credentials are then required, or the
 * embedded sandbox (ONBOARDING_UPSTREAM=sandbox; for `npm start`, also when nothing is named).
 */
function readUpstream(r: Reader) {
  const { errors, get } = r;
  const named = get('ONBOARDING_BASE_URL');
  const upstream = get('ONBOARDING_UPSTREAM');
  if (upstream !== undefined && upstream !== 'sandbox')
    errors.push(
      `ONBOARDING_UPSTREAM must be "sandbox" or unset (got "${upstream.slice(0, 40)}"); a real upstream is named by ONBOARDING_BASE_URL.`,
    );
  if (upstream === 'sandbox' && named !== undefined)
    errors.push('ONBOARDING_UPSTREAM=sandbox and ONBOARDING_BASE_URL are both set: name one upstream, the embedded sandbox or a real one.');
  if (upstream === undefined && named === undefined && r.runner === 'companion')
    errors.push(
      'ONBOARDING_BASE_URL is required: the upstream base URL (or ONBOARDING_UPSTREAM=sandbox for the embedded sandbox, test environment only).',
    );
  const baseUrl = upstream === 'sandbox' ? undefined : named;
  if (baseUrl !== undefined) {
    try {
      const u = new URL(baseUrl);
      if (u.protocol !== 'https:' && u.protocol !== 'http:') errors.push('ONBOARDING_BASE_URL must be an http(s) URL.');
    } catch {
      errors.push(`ONBOARDING_BASE_URL is not a URL (got "${baseUrl.slice(0, 80)}").`);
    }
  }
  const environment = get('ONBOARDING_ENVIRONMENT') ?? COMPANION_DEFAULTS.environment;
  if (environment !== 'test' && environment !== 'production')
    errors.push(`ONBOARDING_ENVIRONMENT must be "test" or "production" (got "${environment.slice(0, 40)}").`);
  if (environment === 'production' && baseUrl === undefined)
    errors.push('ONBOARDING_ENVIRONMENT=production needs ONBOARDING_BASE_URL: the embedded sandbox is for development only.');
  if (environment === 'production' && baseUrl !== undefined && isHttpUrl(baseUrl) && plainHttpRefused(baseUrl, environment)) {
    // Plain http is only for a loopback upstream in tests: anywhere else the credentials would cross the network in clear.
    errors.push('ONBOARDING_BASE_URL must be https in production (plain http only on a loopback address).');
  }

  const client = get('ONBOARDING_CLIENT');
  const secret = get('ONBOARDING_SECRET');
  const webhookKey = get('ONBOARDING_WEBHOOK_KEY');
  if (baseUrl !== undefined) {
    // A real upstream has no default credentials: say exactly which are missing.
    for (const [name, value] of [
      ['ONBOARDING_CLIENT', client],
      ['ONBOARDING_SECRET', secret],
      ['ONBOARDING_WEBHOOK_KEY', webhookKey],
    ] as const) {
      if (value === undefined) errors.push(`${name} is required when ONBOARDING_BASE_URL is set.`);
    }
  }
  if (environment === 'production' && webhookKey !== undefined && webhookKey.length < OPTION_LIMITS.webhookKeyMinLength)
    errors.push(
      `ONBOARDING_WEBHOOK_KEY must have at least ${OPTION_LIMITS.webhookKeyMinLength} characters in production (agree a long random value with the operator).`,
    );
  return { baseUrl, environment, client, secret, webhookKey };
}

function readOrigins({ errors, get }: Reader): string[] {
  const allowedOrigins = (get('ONBOARDING_ALLOWED_ORIGINS') ?? '')
    .split(',')
    .map((o) => o.trim().replace(/\/+$/, ''))
    .filter(Boolean);
  for (const origin of allowedOrigins) {
    let ok: boolean;
    try {
      ok = new URL(origin).origin === origin;
    } catch {
      ok = false;
    }
    if (!ok) errors.push(`ONBOARDING_ALLOWED_ORIGINS: "${origin.slice(0, 80)}" is not an origin (scheme://host[:port], no path).`);
  }
  return allowedOrigins;
}

function readStore({ errors, get }: Reader) {
  const store = get('ONBOARDING_STORE') ?? DEFAULT_STORE_URL;
  try {
    parseStoreUrl(store);
  } catch (e) {
    // parseStoreUrl never echoes the value, which may hold a Redis password.
    errors.push((e as Error).message);
  }
  const redisPrefix = get('ONBOARDING_REDIS_PREFIX') ?? 'okit:';
  if (!/^[\x21-\x7e]{1,64}$/.test(redisPrefix)) errors.push('ONBOARDING_REDIS_PREFIX must be 1 to 64 visible ASCII characters, no spaces.');
  const dataKey = get('ONBOARDING_DATA_KEY');
  if (dataKey !== undefined) {
    // Its messages name an entry by its place and id, never its key bytes.
    const parsed = parseDataKeys(dataKey);
    if (!parsed.ok) errors.push(`ONBOARDING_DATA_KEY: ${parsed.error}`);
  }
  return { store, redisPrefix, dataKey };
}

/** `ONBOARDING_API_KEYS`: `<key>` or `<key>:<scope>+<scope>`, comma separated; the keys checked as any secret, the scopes named. */
function readApiKeys(r: Reader): ApiKeyInput[] {
  const name = 'ONBOARDING_API_KEYS';
  const entries = list(r.get(name));
  const keys = entries.map((entry, i) => {
    const parsed = parseApiKeyEntry(entry);
    if (parsed.ok) return parsed.value;
    const which = entries.length > 1 ? `key ${i + 1} of ${entries.length}` : 'the key';
    r.errors.push(`${name}: ${which}: ${parsed.problem}; write <key> or <key>:<scope>+<scope>.`);
    return entry.slice(0, entry.lastIndexOf(':'));
  });
  readSecrets({ ...r, get: (n) => (n === name ? keys.map(apiKeyOf).join(',') : r.get(n)) }, name, 'key');
  return keys;
}

/** The key of an `ONBOARDING_API_KEYS` entry, without its scopes. */
export const apiKeyOf = (input: ApiKeyInput): string => (typeof input === 'string' ? input : input.key);

/** Where notifications go: an integrator's URL with its secrets; unset, none are sent (`npm start`: its own receiver). */
function readNotify(r: Reader): EnvConfig['notify'] {
  const url = r.get('ONBOARDING_NOTIFY_URL');
  const secretCount = list(r.get('ONBOARDING_NOTIFY_SECRET')).length;
  if (url !== undefined) {
    if (!isHttpUrl(url)) r.errors.push(`ONBOARDING_NOTIFY_URL must be an absolute http(s) URL (got "${url.slice(0, 80)}").`);
    if (secretCount === 0)
      r.errors.push('ONBOARDING_NOTIFY_SECRET is required when ONBOARDING_NOTIFY_URL is set: the notifications are signed with it.');
  } else if (secretCount > 0) {
    r.errors.push(
      `ONBOARDING_NOTIFY_SECRET is set but ONBOARDING_NOTIFY_URL is not: set both${r.runner === 'demo' ? ", or neither for the demo's own receiver" : ', or neither to send no notifications'}.`,
    );
  }
  const secrets = readSecrets(r, 'ONBOARDING_NOTIFY_SECRET', 'secret');
  return url !== undefined ? { url, secrets } : undefined;
}

/** The hosted page's brand, from ONBOARDING_BRAND_FILE or the ONBOARDING_BRAND_* variables, never both. */
function readBrand({ errors, get }: Reader): EnvConfig['brand'] {
  const brandFile = get('ONBOARDING_BRAND_FILE');
  const brandFields: BrandInput = {};
  for (const [field, name] of Object.entries(BRAND_VARIABLES) as [BrandField, string][]) {
    const value = get(name);
    if (value === undefined) continue;
    if (field === 'radius') brandFields.radius = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    else brandFields[field] = value;
  }
  if (brandFile !== undefined && Object.keys(brandFields).length > 0) {
    errors.push(
      `ONBOARDING_BRAND_FILE and ${Object.keys(brandFields)
        .map((f) => BRAND_VARIABLES[f as BrandField])
        .join(', ')} are both set: give the brand one way, the file or the variables.`,
    );
  } else {
    errors.push(...checkBrandFields(brandFields, (field) => BRAND_VARIABLES[field]).map((p) => `${p}.`));
  }
  return brandFile !== undefined ? { file: brandFile } : { fields: brandFields };
}
