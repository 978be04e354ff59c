/**
 * Reading and classifying the upstream's answers (docs/upstream-api.md#errors-and-classification):
 * success is never decided from the HTTP status alone, so every answer is read here into either its
 * body or an `UpstreamError` of the right kind.
 */
import { classify, type ServiceEnvelope } from '@onboarding-kit/contract';
import { UpstreamError, type UpstreamErrorKind } from './upstream-error.js';

/** A failed exchange as the client reports it: `timeout` when the time limit cut it, else `unavailable`. */
export function transportError(op: string, e: unknown): UpstreamError {
  if (e instanceof UpstreamError) return e;
  const name = (e as { name?: string } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError')
    return new UpstreamError('timeout', op, 'The upstream did not answer in time.', { cause: e });
  return new UpstreamError('unavailable', op, 'The upstream could not be reached.', { cause: e });
}

/** Reads a JSON body within the call's time limit; `null` for an empty or (when tolerated) non-JSON body. */
export async function readJson(op: string, res: Response, opts: { tolerateNonJson?: boolean } = {}): Promise<unknown> {
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

/** What an error body of the upstream says of itself: `{status:{code,message}}`, perhaps an `externalId`. */
export function envelopeOf(body: unknown): { code?: number; upstreamMessage?: string; externalId?: string } {
  const b = body as { status?: { code?: unknown; message?: unknown }; externalId?: unknown } | null;
  return {
    ...(typeof b?.status?.code === 'number' && { code: b.status.code }),
    ...(typeof b?.status?.message === 'string' && { upstreamMessage: b.status.message }),
    ...(typeof b?.externalId === 'string' && { externalId: b.externalId }),
  };
}

/** Maps a non-2xx answer of a dedicated endpoint (docs/upstream-api.md#errors-and-classification). */
export function httpError(op: string, httpStatus: number, body: unknown): UpstreamError {
  const details = { httpStatus, ...envelopeOf(body) };
  let kind: UpstreamErrorKind;
  if (httpStatus === 401 || httpStatus === 403) kind = 'unauthorized';
  else if (httpStatus === 408 || httpStatus === 429 || httpStatus === 502 || httpStatus === 503 || httpStatus === 504) kind = 'unavailable';
  else if (httpStatus >= 500) kind = 'failed';
  else kind = 'refused';
  return new UpstreamError(kind, op, `The upstream answered HTTP ${httpStatus}.`, details);
}

/** A 2xx answer can still carry a failure (docs/upstream-api.md, rule 1): read status.code and onboardingStatus. */
export function envelopeFailure(op: string, body: unknown, httpStatus: number): void {
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
    ...(outcome.message !== undefined && { upstreamMessage: outcome.message }),
    ...(outcome.externalId && { externalId: outcome.externalId }),
    // A service the product does not enable is the product's doing, whatever code it came with.
    ...(outcome.kind === 'no-access' && { type: 'product' as const }),
  });
}
