/**
 * A failed upstream call as the companion answers it (docs/page-api.md#error-shape,
 * docs/page-api.md#upstream-failures; docs/upstream-api.md, rule 2): the catalogue's code for the
 * kind of failure, the companion's own message naming the environment, and the `upstream` member.
 *
 * Who reads the answer decides how much of the upstream's own answer it holds: the integrator's
 * backend and the operator (`backend`) get its HTTP status, `status.code` and `status.message`
 * (made safe by the upstream client: upstream/upstream-error.ts); a page (`page`: a person's
 * browser, which holds no credential and must not learn how the integrator's account is set up)
 * gets the type alone.
 */
import type { UpstreamFailure } from '@onboarding-kit/contract';
import type { UpstreamError } from '../upstream/upstream-error.js';
import { DomainError } from './domain-error.js';

export type UpstreamAudience = 'backend' | 'page';

/** The `upstream` member of an error body for `audience`. */
export function upstreamFailureOf(e: UpstreamError, audience: UpstreamAudience): UpstreamFailure {
  if (audience === 'page') return { type: e.type };
  const message = e.upstreamMessage;
  return {
    type: e.type,
    ...(e.httpStatus !== undefined && { status: e.httpStatus }),
    ...(e.code !== undefined && { code: String(e.code) }),
    ...(message && { message }),
  };
}

export function fromUpstream(e: UpstreamError, environment: string, audience: UpstreamAudience = 'page'): DomainError {
  const upstream = upstreamFailureOf(e, audience);
  const ext = { ...(e.externalId && { externalId: e.externalId }), upstream, cause: e };
  const support = e.externalId
    ? ` Quote externalId ${e.externalId} (${environment} environment) to support.`
    : ` (${environment} environment)`;
  switch (e.kind) {
    case 'timeout':
      return new DomainError('upstream_timeout', `The verification service did not answer in time.${support}`, ext);
    case 'unavailable':
      return new DomainError('upstream_unavailable', `The verification service is unavailable; try again shortly.${support}`, {
        ...ext,
        retryAfterS: 5,
      });
    case 'refused':
      return new DomainError('upstream_refused', `The verification service refused the submitted data.${support}`, ext);
    default:
      return new DomainError('upstream_error', `${FAILED[e.type]}${support}`, ext);
  }
}

/** The companion's words for each reason of an `upstream_error`, for the developer who reads it. */
const FAILED: Record<UpstreamFailure['type'], string> = {
  credentials: 'The verification service refused the companion credentials (client and secret of this environment).',
  product: 'The verification service refused the call for the product: the service is not enabled, or the product is inactive.',
  permission: 'The verification service refused the call: the product lacks the permission.',
  unavailable: 'The verification service failed.',
  unknown: 'The verification service failed.',
};

/** The one answer for an unknown token and for a missing or wrong access key: nothing to probe. */
export const notFound = () => new DomainError('not_found', 'No such onboarding.');
