/** A failed upstream call as the page sees it (docs/page-api.md#error-shape; docs/upstream-api.md, rule 2). */
import type { UpstreamError } from '../upstream/upstream-error.js';
import { DomainError } from './domain-error.js';

export function fromUpstream(e: UpstreamError, environment: string): DomainError {
  const ext = e.externalId ? { externalId: e.externalId } : {};
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
      return new DomainError('upstream_error', `The verification service failed.${support}`, ext);
  }
}

/** The one answer for an unknown token and for a missing or wrong access key: nothing to probe. */
export const notFound = () => new DomainError('not_found', 'No such onboarding.');
