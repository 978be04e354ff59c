import type { OnboardingState } from '@onboarding-kit/contract';
import type { OnboardingRecord } from '../store/index.js';

/** What the page may see of an onboarding: `GET /v1/onboardings/{token}` and each SSE event. */
export function toState(r: OnboardingRecord): OnboardingState {
  return {
    tokenOnboarding: r.tokenOnboarding,
    status: r.status,
    updatedAt: r.updatedAt,
    ...(r.externalId && { externalId: r.externalId }),
  };
}
