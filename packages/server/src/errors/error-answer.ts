/**
 * How a refusal is answered over HTTP, whoever renders it (the companion's one onError, or a host's
 * own handler through `getResponse()`): the error shape of the contract, the catalogue's status,
 * and the retry and realm hints as their headers.
 */
import type { ApiErrorBody, ApiErrorCode, UpstreamFailure } from '@onboarding-kit/contract';

interface Refusal {
  readonly code: ApiErrorCode;
  readonly message: string;
  readonly field?: string;
  readonly externalId?: string;
  readonly upstream?: UpstreamFailure;
  readonly retryAfterS?: number;
  readonly realm?: string;
}

export function refusalBody(r: Refusal): ApiErrorBody {
  return {
    error: {
      code: r.code,
      message: r.message,
      ...(r.field && { field: r.field }),
      ...(r.externalId && { externalId: r.externalId }),
      ...(r.upstream && { upstream: { ...r.upstream } }),
    },
  };
}

export function refusalHeaders(r: Refusal): Record<string, string> {
  const headers: Record<string, string> = {};
  if (r.realm) headers['WWW-Authenticate'] = `Bearer realm="${r.realm}"`;
  if (r.retryAfterS !== undefined) headers['Retry-After'] = String(r.retryAfterS);
  return headers;
}
