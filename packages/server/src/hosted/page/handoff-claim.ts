/**
 * The pages' trades of a token for a secret, told apart by outcome: `POST /v1/handoff/claim`
 * (docs/page-api.md#hand-off), by the link's token or the typed code, and `POST
 * /v1/session/exchange` (docs/page-api.md#page-secrets), by the capture link's token.
 */
import type { ApiErrorBody, CaptureExchange, CaptureExchangeRequest, HandoffClaim, HandoffClaimRequest } from '@onboarding-kit/contract';

type ClaimResult =
  | { kind: 'ok'; secret: string }
  | { kind: 'network' }
  | { kind: 'failed' }
  | { kind: 'refused'; status: number; code: string; retryAfter: number };

/** Seconds to wait when a 429 names none. */
const DEFAULT_RETRY_AFTER_S = 60;

export function claim(endpoint: string | undefined, body: HandoffClaimRequest): Promise<ClaimResult> {
  return tradeForSecret(`${endpoint}/handoff/claim`, body, (answer: Partial<HandoffClaim>) => answer.clientSecret);
}

export function exchange(endpoint: string | undefined, body: CaptureExchangeRequest): Promise<ClaimResult> {
  return tradeForSecret(`${endpoint}/session/exchange`, body, (answer: Partial<CaptureExchange>) => answer.pageSecret);
}

async function tradeForSecret<A>(url: string, body: unknown, secretOf: (answer: A) => unknown): Promise<ClaimResult> {
  let res: Response;
  try {
    res = await fetch(url, {
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
      const secret = secretOf((await res.json()) as A);
      if (typeof secret === 'string') return { kind: 'ok', secret };
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
