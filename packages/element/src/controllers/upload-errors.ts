/**
 * What a failed upload means for the person: whether the flow can go on or send again, the words
 * they read, and the photo it points at. Pure functions of the companion's error.
 */
import type { CompanionError } from '../api/index.js';
import type { CaptureRole } from '../image/pipeline.js';
import type { Messages, OnboardingLocale } from '../messages/index.js';
import { uploadErrorTexts } from '../messages/upload-error-texts.js';

/** Errors after which nothing this page can send will be accepted: the session is spent, gone or unknown. */
const SESSION_ENDED = new Set(['session_used', 'session_expired', 'session_cancelled', 'session_invalid', 'session_handed_off']);

/** Whether a failed upload ended the flow for this page (no retry, no way back to the photos). */
export function uploadErrorIsFinal(error: CompanionError): boolean {
  return SESSION_ENDED.has(error.code);
}

/** Whether sending the same content again could succeed. */
export function uploadErrorIsRetryable(error: CompanionError): boolean {
  return !uploadErrorIsFinal(error) && error.code !== 'session_mismatch' && error.code !== 'idempotency_conflict';
}

/** What the person reads about a failed upload, in the language of `m`, `locale`. */
export function uploadErrorMessage(error: CompanionError, m: Messages, locale: OnboardingLocale): string {
  const errors = uploadErrorTexts[locale];
  // Widened: a newer companion may answer a code this page does not know.
  const code: string = error.code;
  // The session's own words: the link is what the person has to replace, whenever it failed.
  if (code === 'session_invalid') return m.session.invalid;
  if (code === 'session_expired') return m.session.expired;
  if (code === 'session_cancelled') return m.session.cancelled;
  if (code === 'session_handed_off') return m.session.handedOff;
  if (code in errors && code !== 'generic' && code !== 'upstream') return errors[code as keyof typeof errors];
  if (code.startsWith('upstream_') || error.status >= 500) return errors.upstream;
  // 408 `upload_too_slow`: the photos reached the companion too slowly, which a steadier connection mends.
  if (error.status === 408) return errors.timeout;
  if (error.status === 413) return errors.payload_too_large;
  if (error.status === 429) return errors.rate_limited;
  return errors.generic;
}

/** The capture role an upload error points at (`field: "images.selfie"`), if any. */
export function uploadErrorRole(error: CompanionError | null): CaptureRole | null {
  const field = error?.field ?? '';
  const role = field.startsWith('images.') ? field.slice('images.'.length) : '';
  return role === 'documentFront' || role === 'documentBack' || role === 'selfie' ? role : null;
}
