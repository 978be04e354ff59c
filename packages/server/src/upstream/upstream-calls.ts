/**
 * The call machinery of the upstream client: one call through the given `fetch` or the node
 * transport, timeouts on every call, bounded retries only where repeating is safe (token
 * generation and GETs; never a creation POST, never a business refusal), and the access token
 * put on each call and renewed once after a real 401.
 */
import { COMPANION_DEFAULTS } from '../config/defaults.js';
import { silentLogger, type Logger } from '../logger.js';
import { AccessTokens, type IssuedToken } from './access-tokens.js';
import { EncodedJson } from './encoded-json.js';
import { nodeTransport, type Transport } from './node-transport.js';
import { envelopeOf, httpError, readJson, transportError } from './upstream-answers.js';
import { UpstreamError } from './upstream-error.js';
import type { UpstreamClientOptions } from './upstream-options.js';

export interface Operation {
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

/** What every call of one client shares, resolved once from its options. */
interface CallContext {
  baseUrl: string;
  givenFetch: typeof fetch | undefined;
  transport: Transport | undefined;
  /** Time limit of a JSON call. */
  timeoutMs: number;
  retries: number;
  retryDelayMs: number;
  log: Logger;
}

/** The calls of one client: each authorised with the access token it keeps. */
export interface UpstreamCalls {
  authorised(op: Operation): Promise<Response>;
  /** `op` with the JSON calls' time limit unless it names its own. */
  json(op: Omit<Operation, 'timeoutMs'> & { timeoutMs?: number }): Operation;
  readonly tokens: AccessTokens;
}

/** The calls for one client's options: their defaults resolved once, one token cache for all. */
export function createUpstreamCalls(options: UpstreamClientOptions): UpstreamCalls {
  const ctx: CallContext = {
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    givenFetch: options.fetch,
    transport: options.fetch ? undefined : nodeTransport(),
    timeoutMs: options.timeoutMs ?? COMPANION_DEFAULTS.upstreamTimeoutMs,
    retries: options.retries ?? 2,
    retryDelayMs: options.retryDelayMs ?? 250,
    log: options.logger ?? silentLogger,
  };
  const tokens = new AccessTokens({
    ...(options.renewEarlyMs !== undefined && { renewEarlyMs: options.renewEarlyMs }),
    ...(options.now && { now: options.now }),
    generate: () => generateToken(ctx, options.client, options.secret),
  });
  return {
    authorised: (op) => authorised(ctx, tokens, op),
    json: (op) => ({ timeoutMs: ctx.timeoutMs, ...op }),
    tokens,
  };
}

/** One call, no repeat: a transport failure becomes an `UpstreamError`. */
async function fetchOnce(ctx: CallContext, op: Operation, accessToken: string | null): Promise<Response> {
  const { baseUrl, givenFetch, transport, log } = ctx;
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
async function withRetries(ctx: CallContext, op: Operation, attempt: () => Promise<Response>): Promise<Response> {
  const { retries, retryDelayMs, log } = ctx;
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

/** `POST /api/token-generate`: a fresh access token for the companion's credentials. */
async function generateToken(ctx: CallContext, client: string, secret: string): Promise<IssuedToken> {
  const op: Operation = {
    method: 'POST',
    path: '/api/token-generate',
    name: 'POST /api/token-generate',
    body: { client, secret },
    timeoutMs: ctx.timeoutMs,
    retrySafe: true,
  };
  const res = await withRetries(ctx, op, () => fetchOnce(ctx, op, null));
  const body = await readJson(op.name, res, { tolerateNonJson: !res.ok });
  if (res.status === 401 || res.status === 403) {
    throw new UpstreamError(
      'unauthorized',
      op.name,
      'The upstream refused the companion credentials (check client and secret for this environment).',
      { httpStatus: res.status, ...envelopeOf(body), type: 'credentials' },
    ).maskCredentials([client, secret]);
  }
  if (!res.ok) throw httpError(op.name, res.status, body).maskCredentials([client, secret]);
  const b = body as { access_token?: unknown; expires_in?: unknown } | null;
  if (typeof b?.access_token !== 'string' || !b.access_token)
    throw new UpstreamError('invalid_response', op.name, 'The token answer carries no access_token.', { httpStatus: res.status });
  const expiresIn = typeof b.expires_in === 'number' && b.expires_in > 0 ? b.expires_in : 60;
  ctx.log.info('upstream access token obtained', { expiresIn });
  return { accessToken: b.access_token, expiresIn };
}

/** One authorised call: on a real HTTP 401, renews the token once and repeats the call once. */
async function authorised(ctx: CallContext, tokens: AccessTokens, op: Operation): Promise<Response> {
  return withRetries(ctx, op, async () => {
    const token = await tokens.get();
    const res = await fetchOnce(ctx, op, token);
    if (res.status !== 401) return res;
    await res.body?.cancel().catch(() => {});
    ctx.log.info('upstream answered 401: renewing the access token once', { op: op.name });
    return fetchOnce(ctx, op, await tokens.afterUnauthorized(token));
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
