/** One try of a notification: its stored body POSTed, freshly signed, under a time limit. */
import { NOTIFICATION_SIGNATURE_HEADER } from '@onboarding-kit/contract';
import type { Timers } from '../relay/timers.js';
import type { OutboxEntry } from '../store/backend-state.js';
import { KIT_VERSION } from '../version.js';
import { signNotification } from './signature.js';

export interface TryDeps {
  url: string;
  secrets: readonly string[];
  fetch: typeof fetch;
  timers: Timers;
  timeoutMs: number;
}

/** How a try ended: `failure` says why it failed (absent when the receiver took it). */
export interface TryResult {
  failure: string | undefined;
  timedOut: boolean;
}

export async function tryDelivery(entry: OutboxEntry, deps: TryDeps, abort: AbortController, startedMs: number): Promise<TryResult> {
  let timedOut = false;
  const timer = deps.timers.setTimeout(() => {
    timedOut = true;
    abort.abort();
  }, deps.timeoutMs);
  let failure: string | undefined;
  try {
    const signature = await signNotification(entry.body, deps.secrets, Math.floor(startedMs / 1000));
    const res = await deps.fetch(deps.url, {
      method: 'POST',
      body: entry.body,
      headers: {
        'Content-Type': 'application/json',
        [NOTIFICATION_SIGNATURE_HEADER]: signature,
        'User-Agent': `onboarding-kit/${KIT_VERSION}`,
      },
      signal: abort.signal,
      // A redirect would carry the signed body somewhere the integrator did not configure.
      redirect: 'manual',
    });
    // The answer's body means nothing here; dropping it frees the connection.
    await res.body?.cancel().catch(() => undefined);
    if (res.status < 200 || res.status > 299) failure = `HTTP ${res.status}`;
  } catch (error) {
    failure = describeFailure(error, timedOut);
  } finally {
    deps.timers.clearTimeout(timer);
  }
  return { failure, timedOut };
}

/** Why a try failed, in words that carry no body, header, URL or secret. */
function describeFailure(error: unknown, timedOut: boolean): string {
  if (timedOut) return 'timeout';
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  const code = typeof cause?.code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(cause.code) ? cause.code : undefined;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection reset';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  return code ? `network error (${code})` : 'network error';
}
