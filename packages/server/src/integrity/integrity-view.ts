/** What the backend sees of a session's capture integrity (docs/backend-api.md#capture-integrity). */
import type { SessionIntegrity } from '@onboarding-kit/contract';
import type { SessionRecord } from '../store/backend-state.js';

/** `integrity` of a session with an onboarding, with the defaults of a page that sent nothing. */
export function sessionIntegrity(s: Pick<SessionRecord, 'integrity'>): SessionIntegrity {
  const r = s.integrity;
  return {
    liveness: r?.liveness ? structuredClone(r.liveness) : { result: 'unavailable', reason: 'not-asked', prompts: [] },
    signals: r?.signals ? structuredClone(r.signals) : [],
    attestation: r ? structuredClone(r.attestation) : { state: 'missing', problems: [], hashes: [] },
    keyframes: r?.keyframes ?? 0,
  };
}
