/**
 * Typed client for the upstream API (docs/upstream-api.md): the token lifecycle, timeouts on
 * every call, bounded retries only where repeating is safe (token generation and GETs; never a
 * creation POST, never a business refusal), and classification of every answer, since success is
 * never decided from the HTTP status alone.
 */
import {
  callAlias,
  classify,
  isServiceId,
  parseOnboardingReport,
  serviceSpec,
  stripNonContract,
  toPureBase64,
  type AliasMap,
  type CustomerRecord,
  type OnboardingReport,
  type OnboardingTokenRequest,
  type OnboardingTokenResponse,
  type Outcome,
  type ServiceEnvelope,
  type ServiceId,
} from '@onboarding-kit/contract';
import { silentLogger, type Logger } from '../logger.js';
import { AccessTokens } from './access-tokens.js';
import { nodeTransport, type Transport } from './node-transport.js';
import type { ServiceFields } from './service-fields.js';
import { UpstreamError, type UpstreamErrorKind } from './upstream-error.js';
import { COMPANION_DEFAULTS } from '../config/defaults.js';

export interface UpstreamClientOptions {
  /** `{base_url}` of the environment, without trailing slash (a trailing one is tolerated). */
  baseUrl: string;
  client: string;
  secret: string;
  /** Per-product call aliases (e.g. `{ SERVICE_DIGITAL_DOCUMENTOSCOPY: 'SERVICE_DOCUMENTOSCOPY' }`). */
  aliases?: AliasMap;
  /** Time limit of each JSON call, answer body included (default 15 s). */
  timeoutMs?: number;
  /** Time limit of a whole PDF download (default 60 s). */
  pdfTimeoutMs?: number;
  /** Extra attempts for calls that are safe to repeat (default 2). */
  retries?: number;
  /** First backoff delay; doubles per attempt (default 250 ms). */
  retryDelayMs?: number;
  /** Renew the access token this long before it expires (default 30 s, at most a tenth of its life). */
  renewEarlyMs?: number;
  /** The clock the token lifetime is counted on (default `Date.now`; tests move it). */
  now?: () => number;
  /** Calls go through this `fetch` when given; by default through node:http(s) with keep-alive sockets. */
  fetch?: typeof fetch;
  logger?: Logger;
}

/**
 * A JSON body already encoded, in pieces: a creation's images are views of the page's request
 * body, sent as they are (no string, no copy). Its text must be the JSON of an
 * `OnboardingTokenRequest`.
 */
export class EncodedJson {
  /**
   * Settles once no call reads the pieces any more: each call that carried them has written them
   * out or been torn down (a `fetch` given to the client copies them at once). Only then may the
   * memory under them be used for anything else.
   */
  readonly released: Promise<void>;
  #calls = 0;
  #settled = false;
  #release!: () => void;
  constructor(readonly pieces: readonly Uint8Array[]) {
    this.released = new Promise((resolve) => (this.#release = resolve));
  }
  /** A call starts reading the pieces; the function it gets says when it has stopped (once). */
  hold(): () => void {
    this.#calls++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (--this.#calls === 0 && this.#settled) this.#release();
    };
  }
  /** No further call will be made with these pieces: `released` settles as soon as the calls made are done. */
  settle(): void {
    this.#settled = true;
    if (this.#calls === 0) this.#release();
  }
}

export interface UpstreamClient {
  /** Runs a standalone query and returns its classified outcome, non-contract fields removed. */
  query<S extends ServiceId>(service: S, fields: ServiceFields<S>): Promise<Outcome>;
  /**
   * A service the catalog does not list (the catalog is not complete; a product alias such as
   * `SERVICE_EMAIL_VALIDATION1`): sent exactly as given, its fields unchecked.
   */
  query<T extends string>(service: T & NotInCatalog<T>, fields: Readonly<Record<string, string>>): Promise<Outcome>;
  /** `POST /api/token-history-onboarding`. Never repeated automatically (it creates). */
  createOnboarding(request: OnboardingTokenRequest | EncodedJson): Promise<OnboardingTokenResponse>;
  /** `GET /api/onboarding/report/{token}`: the report JSON as the upstream sent it, `externalId` only when usable. */
  report(tokenOnboarding: string): Promise<OnboardingReport>;
  /** `GET /api/history-onboarding-report/{token}`: the successful answer, body not yet read (streamable). */
  reportPdf(tokenOnboarding: string): Promise<Response>;
  /** `GET /api/customer?documentKey=...`. */
  customers(documentKey: string): Promise<CustomerRecord[]>;
  /** Values that must never be logged (the secret and the access token held now). */
  secrets(): string[];
}

interface Operation {
  method: 'GET' | 'POST';
  path: string;
  /** Name for logs and errors: method and path without query string or identifiers' values. */
  name: string;
  body?: unknown;
  timeoutMs: number;
  /** The answer's body is streamed to the caller, not read here. */
  stream?: boolean;
  /** Safe to repeat after a timeout, a network failure or a 5xx. */
  retrySafe: boolean;
}

const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504]);

export function createUpstreamClient(options: UpstreamClientOptions): UpstreamClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const givenFetch = options.fetch;
  const transport: Transport | undefined = givenFetch ? undefined : nodeTransport();
  const timeoutMs = options.timeoutMs ?? COMPANION_DEFAULTS.upstreamTimeoutMs;
  const pdfTimeoutMs = options.pdfTimeoutMs ?? 60_000;
  const retries = options.retries ?? 2;
  const retryDelayMs = options.retryDelayMs ?? 250;
  const aliases = options.aliases ?? {};
  const log = options.logger ?? silentLogger;

  async function fetchOnce(op: Operation, accessToken: string | null): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json, application/pdf;q=0.9' };
    if (op.body !== undefined) headers['content-type'] = 'application/json';
    if (accessToken) headers.authorization = `Bearer ${accessToken}`;
    const started = Date.now();
    const encoded = op.body instanceof EncodedJson ? op.body : undefined;
    const body = op.body === undefined ? undefined : encoded ? encoded.pieces : JSON.stringify(op.body);
    const bodyDone = encoded?.hold();
    // A given `fetch` gets a copy, so the pieces are free at once.
    const fetchBody = givenFetch && body !== undefined ? (typeof body === 'string' ? body : Buffer.concat(body)) : undefined;
    if (givenFetch) bodyDone?.();
    try {
      const res = givenFetch
        ? await givenFetch(`${baseUrl}${op.path}`, {
            method: op.method,
            headers,
            ...(fetchBody !== undefined && { body: fetchBody }),
            signal: AbortSignal.timeout(op.timeoutMs),
          })
        : await transport!(`${baseUrl}${op.path}`, {
            method: op.method,
            headers,
            ...(body !== undefined && { body }),
            timeoutMs: op.timeoutMs,
            ...(op.stream && { stream: true }),
            ...(bodyDone && { onBodyDone: bodyDone }),
          });
      log.debug('upstream call', { op: op.name, httpStatus: res.status, ms: Date.now() - started });
      return res;
    } catch (e) {
      throw transportError(op.name, e);
    }
  }

  /** Repeats a safe operation after transport failures and 5xx, with doubling backoff. */
  async function withRetries(op: Operation, attempt: () => Promise<Response>): Promise<Response> {
    for (let n = 0; ; n++) {
      const last = !op.retrySafe || n >= retries;
      try {
        const res = await attempt();
        if (last || !RETRYABLE_STATUS.has(res.status)) return res;
        await res.body?.cancel().catch(() => {});
      } catch (e) {
        if (last || !(e instanceof UpstreamError) || (e.kind !== 'timeout' && e.kind !== 'unavailable')) throw e;
      }
      log.warn('upstream call retried', { op: op.name, attempt: n + 1 });
      await sleep(retryDelayMs * 2 ** n * (0.75 + Math.random() / 2));
    }
  }

  const tokens = new AccessTokens({
    ...(options.renewEarlyMs !== undefined && { renewEarlyMs: options.renewEarlyMs }),
    ...(options.now && { now: options.now }),
    generate: async () => {
      const op: Operation = {
        method: 'POST',
        path: '/api/token-generate',
        name: 'POST /api/token-generate',
        body: { client: options.client, secret: options.secret },
        timeoutMs,
        retrySafe: true,
      };
      const res = await withRetries(op, () => fetchOnce(op, null));
      const body = await readJson(op.name, res, { tolerateNonJson: !res.ok });
      if (res.status === 401 || res.status === 403) {
        throw new UpstreamError(
          'unauthorized',
          op.name,
          'The upstream refused the companion credentials (check client and secret for this environment).',
          { httpStatus: res.status },
        );
      }
      if (!res.ok) throw httpError(op.name, res.status, body);
      const b = body as { access_token?: unknown; expires_in?: unknown } | null;
      if (typeof b?.access_token !== 'string' || !b.access_token)
        throw new UpstreamError('invalid_response', op.name, 'The token answer carries no access_token.', { httpStatus: res.status });
      const expiresIn = typeof b.expires_in === 'number' && b.expires_in > 0 ? b.expires_in : 60;
      log.info('upstream access token obtained', { expiresIn });
      return { accessToken: b.access_token, expiresIn };
    },
  });

  /** One authorised call: on a real HTTP 401, renews the token once and repeats the call once. */
  async function authorised(op: Operation): Promise<Response> {
    return withRetries(op, async () => {
      const token = await tokens.get();
      const res = await fetchOnce(op, token);
      if (res.status !== 401) return res;
      await res.body?.cancel().catch(() => {});
      log.info('upstream answered 401: renewing the access token once', { op: op.name });
      return fetchOnce(op, await tokens.afterUnauthorized(token));
    });
  }

  const json = (op: Omit<Operation, 'timeoutMs'> & { timeoutMs?: number }) => ({ timeoutMs, ...op });

  return {
    async query(service: string, fields: Readonly<Record<string, string | undefined>>) {
      const values = fields;
      // Only the catalog's services have known required fields; any other id goes as given.
      if (isServiceId(service)) {
        const missing = serviceSpec(service).required.filter((f) => !isFilled(values, f));
        if (missing.length) throw new TypeError(`${service} needs ${missing.join(', ')}.`);
      }
      const body: Record<string, string> = { service: isServiceId(service) ? callAlias(service, aliases) : service };
      for (const [k, v] of Object.entries(values)) {
        if (typeof v !== 'string') continue;
        // image1/image2/selfie1 carry pure base64, whatever the caller passed (docs/upstream-api.md, rule 4).
        body[k] = k === 'image1' || k === 'image2' || k === 'selfie1' ? toPureBase64(v) : v;
      }
      const op = json({ method: 'POST', path: '/api/service-api', name: `POST /api/service-api ${service}`, body, retrySafe: false });
      const res = await authorised(op);
      const envelope = await readJson(op.name, res, { tolerateNonJson: true });
      return classify(envelope as ServiceEnvelope | null, res.status);
    },

    async createOnboarding(request) {
      const op = json({
        method: 'POST',
        path: '/api/token-history-onboarding',
        name: 'POST /api/token-history-onboarding',
        body: request,
        retrySafe: false,
      });
      const res = await authorised(op);
      const body = await readJson(op.name, res, { tolerateNonJson: !res.ok });
      if (!res.ok) throw httpError(op.name, res.status, body);
      envelopeFailure(op.name, body, res.status);
      const b = body as Partial<OnboardingTokenResponse> | null;
      if (typeof b?.tokenOnboarding !== 'string' || !b.tokenOnboarding) {
        throw new UpstreamError('invalid_response', op.name, 'The creation answer carries no tokenOnboarding.', { httpStatus: res.status });
      }
      return {
        tokenOnboarding: b.tokenOnboarding,
        // Absent when the upstream sent none: a time of our own would pass for the upstream's (docs/upstream-api.md, rule 8).
        ...(typeof b.dateHourProcess === 'string' && b.dateHourProcess && { dateHourProcess: b.dateHourProcess }),
      };
    },

    async report(tokenOnboarding) {
      const op = json({
        method: 'GET',
        path: `/api/onboarding/report/${encodeURIComponent(tokenOnboarding)}`,
        name: 'GET /api/onboarding/report/{token}',
        retrySafe: true,
      });
      const res = await authorised(op);
      const body = await readJson(op.name, res, { tolerateNonJson: !res.ok });
      if (!res.ok) throw httpError(op.name, res.status, body);
      envelopeFailure(op.name, body, res.status);
      const report = parseOnboardingReport(body);
      if (!report)
        throw new UpstreamError('invalid_response', op.name, 'The report answer carries no tokenOnboarding/status.', {
          httpStatus: res.status,
        });
      return report;
    },

    async reportPdf(tokenOnboarding) {
      const op: Operation = {
        method: 'GET',
        path: `/api/history-onboarding-report/${encodeURIComponent(tokenOnboarding)}`,
        name: 'GET /api/history-onboarding-report/{token}',
        timeoutMs: pdfTimeoutMs,
        retrySafe: true,
        stream: true,
      };
      const res = await authorised(op);
      if (!res.ok) throw httpError(op.name, res.status, await readJson(op.name, res, { tolerateNonJson: true }));
      return res;
    },

    async customers(documentKey) {
      const op = json({
        method: 'GET',
        path: `/api/customer?documentKey=${encodeURIComponent(documentKey)}`,
        name: 'GET /api/customer',
        retrySafe: true,
      });
      const res = await authorised(op);
      const body = await readJson(op.name, res, { tolerateNonJson: !res.ok });
      if (!res.ok) throw httpError(op.name, res.status, body);
      if (!Array.isArray(body)) {
        envelopeFailure(op.name, body, res.status);
        throw new UpstreamError('invalid_response', op.name, 'The customer answer is not an array.', { httpStatus: res.status });
      }
      return stripNonContract(body) as CustomerRecord[];
    },

    secrets() {
      const t = tokens.peek();
      return t ? [options.secret, t] : [options.secret];
    },
  };
}

/** Rejects, at compile time, a catalog id given to the unchecked form of `query`. */
type NotInCatalog<T extends string> = T extends ServiceId ? never : unknown;

/** The URL form the upstream accepts in place of an image (docs/upstream-api.md#request-fields). */
const URL_FOR: Readonly<Record<string, string>> = { image1: 'image1Url', image2: 'image2Url' };

/** A required field is there when it, or the URL standing in for its image, is non-empty text. */
function isFilled(values: Readonly<Record<string, string | undefined>>, field: string): boolean {
  const filled = (name: string | undefined) => name !== undefined && typeof values[name] === 'string' && values[name] !== '';
  return filled(field) || filled(URL_FOR[field]);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function transportError(op: string, e: unknown): UpstreamError {
  if (e instanceof UpstreamError) return e;
  const name = (e as { name?: string } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError')
    return new UpstreamError('timeout', op, 'The upstream did not answer in time.', { cause: e });
  return new UpstreamError('unavailable', op, 'The upstream could not be reached.', { cause: e });
}

/** Reads a JSON body within the call's time limit; `null` for an empty or (when tolerated) non-JSON body. */
async function readJson(op: string, res: Response, opts: { tolerateNonJson?: boolean } = {}): Promise<unknown> {
  let text: string;
  try {
    text = await res.text();
  } catch (e) {
    throw transportError(op, e);
  }
  if (!text.trim()) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    if (opts.tolerateNonJson) return null;
    throw new UpstreamError('invalid_response', op, 'The upstream answer is not JSON.', { httpStatus: res.status });
  }
}

function envelopeOf(body: unknown): { code?: number; externalId?: string } {
  const b = body as { status?: { code?: unknown }; externalId?: unknown } | null;
  return {
    ...(typeof b?.status?.code === 'number' && { code: b.status.code }),
    ...(typeof b?.externalId === 'string' && { externalId: b.externalId }),
  };
}

/** Maps a non-2xx answer of a dedicated endpoint (docs/upstream-api.md#errors-and-classification). */
function httpError(op: string, httpStatus: number, body: unknown): UpstreamError {
  const details = { httpStatus, ...envelopeOf(body) };
  let kind: UpstreamErrorKind;
  if (httpStatus === 401 || httpStatus === 403) kind = 'unauthorized';
  else if (httpStatus === 408 || httpStatus === 429 || httpStatus === 502 || httpStatus === 503 || httpStatus === 504) kind = 'unavailable';
  else if (httpStatus >= 500) kind = 'failed';
  else kind = 'refused';
  return new UpstreamError(kind, op, `The upstream answered HTTP ${httpStatus}.`, details);
}

/** A 2xx answer can still carry a failure (docs/upstream-api.md, rule 1): read status.code and onboardingStatus. */
function envelopeFailure(op: string, body: unknown, httpStatus: number): void {
  const b = body as ServiceEnvelope | null;
  if (!b || typeof b !== 'object' || Array.isArray(b)) return;
  const hasStatusObject = !!b.status && typeof b.status === 'object';
  const hasVerdict = typeof b.onboardingStatus === 'string';
  if (!hasStatusObject && !hasVerdict) return;
  const outcome = classify(b, httpStatus);
  if (outcome.ok) return;
  const kinds: Record<string, UpstreamErrorKind> = {
    refused: 'refused',
    failed: 'refused',
    'missing-image': 'refused',
    'face-not-found': 'refused',
    'no-access': 'unauthorized',
    unauthorized: 'unauthorized',
    error: 'failed',
  };
  throw new UpstreamError(kinds[outcome.kind] ?? 'failed', op, `The upstream reported a failure (${outcome.kind}).`, {
    httpStatus,
    ...(outcome.code !== undefined && { code: outcome.code }),
    ...(outcome.externalId && { externalId: outcome.externalId }),
  });
}
