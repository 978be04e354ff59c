/**
 * `GET /v1/sessions`'s query (docs/backend-api.md#get-v1sessions-api-key-scope-sessions): each parameter checked, every
 * refusal naming its parameter, and the page cursor: an opaque string for the caller, for the
 * companion the position (creation time, id) of a page's last session, checked on the way back in.
 */
import { SESSION_LIMITS, SESSION_STATUSES, sessionIdPrefixOf, type SessionStatus, type Validation } from '@onboarding-kit/contract';
import type { SessionPosition, SessionQuery } from '../store/backend-state.js';

const CURSOR_VERSION = 'c1';
const CURSOR = /^c1:(\d{1,15}):(ses_[0-9a-f]{32})$/;
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;
const LIMIT = /^\d{1,3}$/;

export const encodeCursor = (p: SessionPosition): string => Buffer.from(`${CURSOR_VERSION}:${p.createdMs}:${p.id}`).toString('base64url');

/** The position a cursor of `encodeCursor` holds, or null for anything else. */
export function decodeCursor(cursor: string): SessionPosition | null {
  if (cursor.length > 128 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const m = CURSOR.exec(text);
  // Base64url has several spellings of one text: only the one this side writes is taken.
  if (!m || encodeCursor({ createdMs: Number(m[1]), id: m[2]! }) !== cursor) return null;
  return { createdMs: Number(m[1]), id: m[2]! };
}

const refused = (field: string, message: string): Validation<never> => ({
  ok: false,
  status: 400,
  error: { code: 'invalid_field', message, field },
});

function instant(value: string | undefined, field: string): Validation<number | undefined> {
  if (value === undefined) return { ok: true, value: undefined };
  const ms = ISO_8601.test(value) ? Date.parse(value) : NaN;
  return Number.isFinite(ms)
    ? { ok: true, value: ms }
    : refused(field, `${field} must be an ISO 8601 date or date-time (2030-01-31T12:00:00Z).`);
}

/** The store's query for `GET /v1/sessions?...`, asking for one session more than the page, which tells whether another page follows. */
export function parseListQuery(params: Record<string, string | undefined>): Validation<{ query: SessionQuery; limit: number }> {
  const { reference, status, cursor } = params;
  if (reference !== undefined && (reference.length < 1 || reference.length > SESSION_LIMITS.referenceMaxLength))
    return refused('reference', `reference is 1 to ${SESSION_LIMITS.referenceMaxLength} characters.`);
  if (status !== undefined && !(SESSION_STATUSES as readonly string[]).includes(status))
    return refused('status', `status is one of ${SESSION_STATUSES.join(', ')}.`);
  const after = instant(params.createdAfter, 'createdAfter');
  if (!after.ok) return after;
  const before = instant(params.createdBefore, 'createdBefore');
  if (!before.ok) return before;
  let limit: number = SESSION_LIMITS.listDefault;
  if (params.limit !== undefined) {
    limit = LIMIT.test(params.limit) ? Number(params.limit) : NaN;
    if (!(limit >= 1 && limit <= SESSION_LIMITS.listMax))
      return refused('limit', `limit is a whole number from 1 to ${SESSION_LIMITS.listMax}.`);
  }
  const idPrefix = params.supportCode === undefined ? undefined : sessionIdPrefixOf(params.supportCode.slice(0, 32));
  if (idPrefix === null) return refused('supportCode', 'supportCode is the 8 characters the person read out (K7QM-4XPD).');
  const position = cursor === undefined ? undefined : decodeCursor(cursor);
  if (position === null) return refused('cursor', 'cursor is not one this companion gave: pass nextCursor of the previous page as it is.');
  return {
    ok: true,
    value: {
      limit,
      query: {
        ...(reference !== undefined && { reference }),
        ...(status !== undefined && { status: status as SessionStatus }),
        ...(after.value !== undefined && { createdAfterMs: after.value }),
        ...(before.value !== undefined && { createdBeforeMs: before.value }),
        ...(position && { after: position }),
        ...(idPrefix !== undefined && { idPrefix }),
        limit: limit + 1,
      },
    },
  };
}
