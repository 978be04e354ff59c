/**
 * Turns an upstream answer into an outcome (docs/upstream-api.md#errors-and-classification).
 * Success is never decided from the HTTP status alone: `status.code`, `status.message` and
 * `onboardingStatus` decide (docs/upstream-api.md, rule 1).
 */
import type { ServiceEnvelope } from './envelope.js';
import { stripNonContract } from './strip.js';

export type OutcomeKind =
  /** Processed with business data in `result`. */
  | 'success'
  /** Processed (code 200) but `result` is empty; `reason` says why (for example a balance shortage). */
  | 'no-data'
  /** Business refusal (`onboardingStatus: REFUSED`); never retried. */
  | 'refused'
  /** Technical failure (`onboardingStatus: ERROR` or code 500); investigate with `externalId`. */
  | 'error'
  /** `Don't have access to the service`: service not enabled for the product, or wrong alias. */
  | 'no-access'
  /** `Imagem obrigatória não encontrada`: a required image, URL or key is missing. */
  | 'missing-image'
  /** `Face nao encontrada na base`: no match in the face base, or no face detected. */
  | 'face-not-found'
  /** In-body 401 (product inactive or not found) or a real HTTP 401 (token). */
  | 'unauthorized'
  /** Any other failure code. */
  | 'failed';

export interface Outcome<R extends object = Record<string, unknown>> {
  kind: OutcomeKind;
  /** True only for `success` and `no-data`: the query was processed. */
  ok: boolean;
  /** The upstream's `status.code`, when it sent one. */
  code?: number;
  /** The upstream's `status.message` (the reason for `no-data`, the cause for failures). */
  message?: string;
  externalId?: string;
  /** Business data, non-contract fields removed; present for `success` (and `{}` for `no-data`). */
  result?: R;
  /** Whether repeating the same call could give another answer. REFUSED never is. */
  retryable: boolean;
}

const NO_ACCESS = /don'?t have access/i;
const MISSING_IMAGE = /imagem obrigat/i;
const FACE_NOT_FOUND = /face n[aã]o encontrada/i;

function isEmptyObject(value: unknown): boolean {
  return !!value && typeof value === 'object' && Object.keys(value).length === 0;
}

/**
 * Classifies an envelope. `httpStatus` is only consulted for a real HTTP 401 (token missing,
 * expired or invalid) and for answers that carry no envelope at all.
 */
export function classify<R extends object = Record<string, unknown>>(
  envelope: ServiceEnvelope<R> | null | undefined,
  httpStatus = 200,
): Outcome<R> {
  const body = (envelope && typeof envelope === 'object' ? envelope : {}) as ServiceEnvelope<R>;
  const code = typeof body.status?.code === 'number' ? body.status.code : undefined;
  const message = typeof body.status?.message === 'string' ? body.status.message : undefined;
  const base = {
    ...(code !== undefined && { code }),
    ...(message !== undefined && { message }),
    ...(typeof body.externalId === 'string' && { externalId: body.externalId }),
  };

  if (httpStatus === 401) return { ...base, kind: 'unauthorized', ok: false, retryable: true };
  if (body.onboardingStatus === 'REFUSED') return { ...base, kind: 'refused', ok: false, retryable: false };
  if (body.onboardingStatus === 'ERROR') return { ...base, kind: 'error', ok: false, retryable: true };

  if (code === undefined) {
    // No envelope status: a transport-level answer (proxy error page, HTTP 5xx, garbage).
    return { ...base, kind: 'error', ok: false, retryable: httpStatus >= 500 || httpStatus === 0 };
  }
  if (code >= 200 && code < 300) {
    const result = stripNonContract((body.result ?? {}) as R);
    if (isEmptyObject(result)) return { ...base, kind: 'no-data', ok: true, result, retryable: false };
    return { ...base, kind: 'success', ok: true, result, retryable: false };
  }
  if (code === 401) return { ...base, kind: 'unauthorized', ok: false, retryable: false };
  if (code >= 500) return { ...base, kind: 'error', ok: false, retryable: true };
  if (message && NO_ACCESS.test(message)) return { ...base, kind: 'no-access', ok: false, retryable: false };
  if (message && MISSING_IMAGE.test(message)) return { ...base, kind: 'missing-image', ok: false, retryable: false };
  if (message && FACE_NOT_FOUND.test(message)) return { ...base, kind: 'face-not-found', ok: false, retryable: false };
  return { ...base, kind: 'failed', ok: false, retryable: false };
}
