/** `POST /v1/handoff/claim` (docs/page-api.md#hand-off), by the link's token or the typed code, told apart by outcome. */
import type { ApiErrorBody, HandoffClaim, HandoffClaimRequest } from '@onboarding-kit/contract';

type ClaimResult =
  | { kind: 'ok'; secret: string }
  | { kind: 'network' }
  | { kind: 'failed' }
  | { kind: 'refused'; status: number; code: string; retryAfter: number };

/** Seconds to wait when a 429 names none. */
const DEFAULT_RETRY_AFTER_S = 60;

export async function claim(endpoint: string | undefined, body: HandoffClaimRequest): Promise<ClaimResult> {
  let res: Response;
  try {
    res = await fetch(`${endpoint}/handoff/claim`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      credentials: 'omit',
      cache: 'no-store',
      referrerPolicy: 'no-referrer',
    });
  } catch {
    return { kind: 'network' };
  }
  if (res.ok) {
    try {
      const answer = (await res.json()) as Partial<HandoffClaim>;
      if (typeof answer.clientSecret === 'string') return { kind: 'ok', secret: answer.clientSecret };
    } catch {
      // An answer that is not the claim's: as a failure below.
    }
    return { kind: 'failed' };
  }
  let code: string;
  try {
    code = ((await res.json()) as ApiErrorBody).error.code;
  } catch {
    code = '';
  }
  const seconds = Number(res.headers.get('retry-after'));
  const retryAfter = Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : DEFAULT_RETRY_AFTER_S;
  return { kind: 'refused', status: res.status, code, retryAfter };
}
