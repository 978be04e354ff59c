/**
 * One call to the companion: the API key, a timeout per try, the `Idempotency-Key` of a creation
 * (one key for every try of the same call), and the retries of retry-rules.ts. Only the global
 * `fetch` and Web Crypto: no `node:` module, so the SDK also runs on Deno, Bun and workers.
 */
import { OnboardingApiError, OnboardingConnectionError, OnboardingTimeoutError } from './errors.js';
import {
  MAX_RETRY_AFTER_MS,
  parseRetryAfter,
  retriesAnswer,
  retriesConnectionFailure,
  retryDelayMs,
  type RetryPolicy,
} from './retry-rules.js';
import type { UpstreamFailure } from './types.js';
import { SDK_VERSION } from './version.js';

export interface OnboardingClientOptions {
  /** One of the companion's `ONBOARDING_API_KEYS`. Never sent anywhere but the `Authorization` header. */
  apiKey: string;
  /** The companion's base URL, e.g. `https://kyc.example.com` (a trailing `/v1` is accepted). */
  baseUrl: string;
  /** Limit of each try, from the request to the end of its answer (for downloads: to the answer's headers). Default 30 000. */
  timeoutMs?: number;
  /** Tries after the first, on the answers retry-rules.ts names. Default 2. */
  maxRetries?: number;
  /** A `fetch` of your own (a proxy agent, a test double); default the global one. */
  fetch?: typeof fetch;
}

/** Per-call overrides. */
export interface RequestOptions {
  /** A creation's `Idempotency-Key` (1-255 visible ASCII characters); default a random UUID per call. */
  idempotencyKey?: string;
  timeoutMs?: number;
  maxRetries?: number;
  /** Aborts the call, retries and waits included; the call then rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface CallSpec {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | undefined>;
  /** JSON body. */
  body?: unknown;
  policy: RetryPolicy;
  /** Sends an `Idempotency-Key`, the caller's or a fresh one, the same on every try. */
  creation?: boolean;
  options?: RequestOptions | undefined;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RETRIES = 2;

/** Why a try's own timer aborted it, told apart from the caller's signal. */
class TryTimeout extends Error {}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function normaliseBaseUrl(baseUrl: unknown): string {
  if (typeof baseUrl !== 'string') throw new TypeError("OnboardingClient needs baseUrl, the companion's URL (https://kyc.example.com).");
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError('OnboardingClient: baseUrl is not an absolute URL.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError('OnboardingClient: baseUrl must be http(s).');
  if (url.username || url.password) throw new TypeError('OnboardingClient: baseUrl must not carry credentials; pass apiKey.');
  return `${url.origin}${url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '')}`;
}

function checkCount(name: string, value: unknown, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min)
    throw new TypeError(`OnboardingClient: ${name} must be a whole number of at least ${min}.`);
  return value;
}

export class Transport {
  readonly #apiKey: string;
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly #fetch: typeof fetch;

  constructor(options: OnboardingClientOptions) {
    if (!isRecord(options)) throw new TypeError('OnboardingClient needs its options: { apiKey, baseUrl }.');
    if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '' || /\s/.test(options.apiKey))
      throw new TypeError("OnboardingClient needs apiKey: one of the companion's ONBOARDING_API_KEYS, without whitespace.");
    this.#apiKey = options.apiKey;
    this.baseUrl = normaliseBaseUrl(options.baseUrl);
    this.timeoutMs = checkCount('timeoutMs', options.timeoutMs, 1) ?? DEFAULT_TIMEOUT_MS;
    this.maxRetries = checkCount('maxRetries', options.maxRetries, 0) ?? DEFAULT_MAX_RETRIES;
    const f = options.fetch ?? globalThis.fetch;
    if (typeof f !== 'function') throw new TypeError('OnboardingClient needs fetch: this runtime has no global fetch; pass one.');
    this.#fetch = f;
  }

  /** The answer's JSON body. */
  async json<T>(spec: CallSpec): Promise<T> {
    const { value } = await this.#call(spec, async (res) => (await res.json()) as T);
    return value;
  }

  /** The answer itself, its body unread: the timeout stops at its headers. */
  async stream(spec: CallSpec): Promise<Response> {
    const { response } = await this.#call(spec, null);
    return response;
  }

  async #call<T>(spec: CallSpec, read: ((res: Response) => Promise<T>) | null): Promise<{ response: Response; value: T }> {
    const options = spec.options ?? {};
    const timeoutMs = checkCount('timeoutMs', options.timeoutMs, 1) ?? this.timeoutMs;
    const maxRetries = checkCount('maxRetries', options.maxRetries, 0) ?? this.maxRetries;
    const url = this.#url(spec);
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.#apiKey}`,
      Accept: read ? 'application/json' : '*/*',
      'User-Agent': `onboarding-kit-node/${SDK_VERSION}`,
    };
    let body: string | undefined;
    if (spec.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(spec.body);
    }
    if (spec.creation) headers['Idempotency-Key'] = options.idempotencyKey ?? globalThis.crypto.randomUUID();
    const what = `${spec.method} ${spec.path}`;

    for (let retry = 0; ; retry++) {
      options.signal?.throwIfAborted();
      const timer = new AbortController();
      const timeout = setTimeout(() => timer.abort(new TryTimeout()), timeoutMs);
      const signal = options.signal ? AbortSignal.any([timer.signal, options.signal]) : timer.signal;
      try {
        const res = await this.#fetch(url, {
          method: spec.method,
          headers,
          ...(body !== undefined && { body }),
          signal,
          redirect: 'error',
        });
        if (res.ok) {
          if (!read) return { response: res, value: undefined as T };
          try {
            return { response: res, value: await read(res) };
          } catch (error) {
            if (!(error instanceof SyntaxError)) throw error;
            throw new OnboardingApiError({
              status: res.status,
              code: 'invalid_response',
              message: `${what} answered HTTP ${res.status} with a body that is not JSON.`,
              ...(res.headers.get('x-request-id') && { requestId: res.headers.get('x-request-id')! }),
            });
          }
        }
        const failure = await apiError(res, what);
        const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'), Date.now());
        const waitable = retryAfterMs === undefined || retryAfterMs <= MAX_RETRY_AFTER_MS;
        if (retry < maxRetries && waitable && retriesAnswer(spec.policy, res.status, failure.code)) {
          clearTimeout(timeout);
          await pause(retryDelayMs(retry, retryAfterMs, Math.random()), options.signal);
          continue;
        }
        throw failure;
      } catch (error) {
        if (error instanceof OnboardingApiError) throw error;
        if (options.signal?.aborted) throw options.signal.reason;
        const timedOut = timer.signal.aborted;
        if (retry < maxRetries && retriesConnectionFailure(spec.policy)) {
          clearTimeout(timeout);
          await pause(retryDelayMs(retry, undefined, Math.random()), options.signal);
          continue;
        }
        if (timedOut) throw new OnboardingTimeoutError(`${what}: no answer within ${timeoutMs} ms (${retry + 1} tries).`);
        throw new OnboardingConnectionError(`${what}: the companion could not be reached (${causeOf(error)}; ${retry + 1} tries).`, {
          cause: error,
        });
      } finally {
        clearTimeout(timeout);
      }
    }
  }

  #url(spec: CallSpec): string {
    const url = new URL(`${this.baseUrl}${spec.path}`);
    for (const [name, value] of Object.entries(spec.query ?? {})) if (value !== undefined) url.searchParams.set(name, value);
    return url.href;
  }
}

/** The error's own words, never a header: undici puts the real cause (ECONNREFUSED...) one level down. */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : 'network error';
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason);
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function isUpstreamFailure(v: unknown): v is UpstreamFailure {
  return isRecord(v) && typeof v.type === 'string';
}

/** The error shape of a non-2xx answer, read whole (it is small) so that the connection is released. */
async function apiError(res: Response, what: string): Promise<OnboardingApiError> {
  const text = await res.text().catch(() => '');
  let error: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (isRecord(parsed) && isRecord(parsed.error) && typeof parsed.error.code === 'string') error = parsed.error;
  } catch {
    // Not the companion's error shape (a proxy's page, say): described by its status below.
  }
  const requestId = res.headers.get('x-request-id') ?? undefined;
  const retryAfter = parseRetryAfter(res.headers.get('retry-after'), Date.now());
  return new OnboardingApiError({
    status: res.status,
    code: (error?.code as string | undefined) ?? `http_${res.status}`,
    message:
      typeof error?.message === 'string' ? error.message : `${what} answered HTTP ${res.status} without the companion's error shape.`,
    ...(typeof error?.field === 'string' && { field: error.field }),
    ...(typeof error?.externalId === 'string' && { externalId: error.externalId }),
    ...(isUpstreamFailure(error?.upstream) && { upstream: error.upstream }),
    ...(requestId && { requestId }),
    ...(retryAfter !== undefined && { retryAfterS: Math.ceil(retryAfter / 1000) }),
  });
}
