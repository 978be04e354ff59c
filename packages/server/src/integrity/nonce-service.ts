/**
 * Issues the capture nonces of a session's page (docs/page-api.md#attestation): 32 random bytes
 * each, kept on the session by compare-and-set so that two tabs asking at once never go past the
 * session's allowance.
 */
import { randomBytes } from 'node:crypto';
import type { CaptureNonce, ImageRoleName } from '@onboarding-kit/contract';
import type { SessionRecord } from '../store/backend-state.js';
import { captureNonceOf, nonceRefusal, noncesSpent, withIssuedNonce } from './nonce-rules.js';

export interface NonceServiceOptions {
  sessions: {
    change(id: string, change: (s: SessionRecord) => SessionRecord | null): Promise<SessionRecord | null>;
    now(): number;
  };
}

export class NonceService {
  constructor(private readonly o: NonceServiceOptions) {}

  async issue(session: SessionRecord, role: ImageRoleName): Promise<CaptureNonce> {
    const issued = { nonce: randomBytes(32).toString('base64url'), role, issuedAt: new Date(this.o.sessions.now()).toISOString() };
    let refusal = nonceRefusal(session, this.o.sessions.now());
    if (refusal) throw refusal;
    const changed = await this.o.sessions.change(session.id, (s) => {
      // Read again on the latest record: a creation may have claimed the session meanwhile.
      refusal = nonceRefusal(s, this.o.sessions.now());
      return refusal ? null : withIssuedNonce(s, issued);
    });
    if (refusal) throw refusal;
    if (!changed) throw noncesSpent();
    return captureNonceOf(issued);
  }
}
