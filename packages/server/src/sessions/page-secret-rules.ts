/**
 * Which page secrets still open a session, as pure functions of its record (docs/page-api.md#page-secrets).
 * The capture token of a session's `url` lives in an address bar and a browser's history, so it is
 * traded once for a page secret the hosted page keeps in its tab; every secret a page holds
 * (the integrator's client secret, capture token, page secret, a device's) stops opening the
 * session a few minutes after it ended: the backend reads outcomes with its API key.
 */
import { keyMatches } from '../auth/access-key.js';
import type { SessionRecord, SessionSecretKind } from '../store/backend-state.js';

/** Whether this capture token was already exchanged for a page secret (constant-time compares). */
export function captureExchanged(session: SessionRecord, captureToken: string): boolean {
  let found = false;
  for (const hash of session.exchangedCaptures ?? []) found = keyMatches(captureToken, hash) || found;
  return found;
}

/**
 * Whether a secret of `kind` still opens `session` at `nowMs`: an exchanged capture token never
 * does, and every other page secret, the integrator's client secret included, does until
 * `graceMs` after the session ended.
 */
export function pageSecretOpens(
  session: SessionRecord,
  caller: { kind: SessionSecretKind; secret: string },
  nowMs: number,
  graceMs: number,
): boolean {
  if (caller.kind === 'capture' && captureExchanged(session, caller.secret)) return false;
  return session.endedAt === undefined || Date.parse(session.endedAt) + graceMs > nowMs;
}
