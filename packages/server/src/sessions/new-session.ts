/** What a session starts with: its record, and the secrets handed out once for it. */
import { randomBytes } from 'node:crypto';
import type { CreateSessionResponse, ValidCreateSession } from '@onboarding-kit/contract';
import type { SessionRecord } from '../store/backend-state.js';
import { effectiveStatus } from './session-view.js';
import { requestedChecks } from '../store/rules/checks.js';

/** An open session for the validated request, created at `now` (ms). */
export function newSessionRecord(valid: ValidCreateSession, now: number): SessionRecord {
  const requested = requestedChecks(valid.checks, valid.steps);
  return {
    id: `ses_${randomBytes(16).toString('hex')}`,
    version: 1,
    reference: valid.reference,
    status: 'open',
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + valid.expiresInS * 1000).toISOString(),
    ...(valid.taxId && { taxId: valid.taxId }),
    ...(valid.name && { name: valid.name }),
    documentTypes: valid.documentTypes,
    locale: valid.locale,
    ...(valid.returnUrl && { returnUrl: valid.returnUrl }),
    metadata: valid.metadata,
    ...(valid.steps && { steps: [...valid.steps] }),
    ...(valid.prefillFromDocument && { prefillFromDocument: true }),
    ...(requested.length > 0 && { checks: { requested, results: [] } }),
  };
}

/** A client secret (for the page) and a capture token (for the hosted page's URL): 192 random bits each. */
export function newSecrets(id: string): { clientSecret: string; captureToken: string } {
  return {
    clientSecret: `${id}_secret_${randomBytes(24).toString('base64url')}`,
    captureToken: randomBytes(24).toString('base64url'),
  };
}

/** The hosted page's secret for a capture token it exchanged (192 random bits, prefixed like a client secret). */
export function newPageSecret(id: string): string {
  return `${id}_page_${randomBytes(24).toString('base64url')}`;
}

/** What the backend is answered when it opens a session: the secrets, shown this once, and the hosted page's `url` under `base`. */
export function sessionResponse(
  base: string,
  now: number,
  session: SessionRecord,
  secrets: { clientSecret: string; captureToken: string },
): CreateSessionResponse {
  return {
    id: session.id,
    clientSecret: secrets.clientSecret,
    url: `${base}/capture/${secrets.captureToken}`,
    status: effectiveStatus(session, now),
    expiresAt: session.expiresAt,
    reference: session.reference,
  };
}
