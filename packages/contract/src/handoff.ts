/**
 * The hand-off of a session from one device to another (a computer to a phone), and the live
 * events a page follows it by (docs/page-api.md).
 *
 * A session is held by one device at a time. The page that opened it (the hosted page's capture
 * token, or the element's client secret) is the *origin*; a hand-off link, used once, gives a
 * second device a secret of its own and the session with it. The origin then only follows, and
 * may take the session back while nothing has been sent.
 */

/** Hand-off limits. */
export const HANDOFF_LIMITS = {
  /** A hand-off link (and its short code) lives this long unused. */
  ttlS: 600,
  /** Short code length, without the separator shown in the middle. */
  codeLength: 8,
  /** Short-code attempts per client address per window, across all codes; refused ones count. */
  claimAttemptsPerWindow: 10,
  claimWindowS: 60,
} as const;

/**
 * The short code's alphabet: no 0/O, 1/I/L, 2/Z, 5/S, 8/B, U/V (easily confused when read aloud,
 * written or typed on a phone); 23 symbols, so 8 of them give about 36.2 bits.
 */
export const HANDOFF_CODE_ALPHABET = 'ACDEFGHJKMNPQRTWXY34679';

/** A short code as typed (any case, spaces or dashes) to its canonical form, or null if it cannot be one. */
export function normalizeHandoffCode(input: string): string | null {
  const code = input.toUpperCase().replace(/[\s-]/g, '');
  if (code.length !== HANDOFF_LIMITS.codeLength) return null;
  for (const c of code) if (!HANDOFF_CODE_ALPHABET.includes(c)) return null;
  return code;
}

/** `XXXX-XXXX`, as shown to a person. */
export function formatHandoffCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** `201` answer of `POST /v1/session/handoff` (origin only): a new link; any earlier unused one stops working. */
export interface HandoffOffer {
  /** The link the QR code holds: `<public>/h/<token>`. Single use. */
  url: string;
  /** Where the short code is typed: `<public>/h`. */
  shortUrl: string;
  /** 8 characters from {@link HANDOFF_CODE_ALPHABET}, shown as `XXXX-XXXX`. */
  code: string;
  expiresAt: string;
}

/**
 * What the person already answered on the computer, sent in the body of `POST /v1/session/handoff`
 * (`HandoffOfferRequest`) so the phone never asks it again. The companion keeps it sealed with the
 * session's personal data and erases it with them (a redaction, the purge), on a take-back and
 * with the next offer.
 */
export interface HandoffAnswers {
  /** When the person gave the consent on the computer (ISO 8601): recorded as given, never skipped. */
  consentAt: string;
  /** The CPF typed (any punctuation). Only ever in a request body: never in a link, a QR code or a log line. */
  cpf?: string;
  /** The name typed (optional). */
  name?: string;
  /** The document type chosen. */
  documentType?: string;
}

/** Body of `POST /v1/session/handoff` (optional: without it, the phone starts at the intro). */
export interface HandoffOfferRequest {
  answers?: HandoffAnswers;
}

/**
 * What the device holding a handed-off session is told of the computer's answers
 * (`PageHandoffState.answers`): the consent's time, the CPF masked as a page sees a session's
 * (`***.982.247-**`; the companion fills the whole one into the creation), the document type.
 */
export interface PageHandoffAnswers {
  consentAt: string;
  cpf?: string;
  documentType?: string;
}

/** Body of `POST /v1/handoff/claim` (no Authorization): one of the two. */
export type HandoffClaimRequest = { token: string } | { code: string };

/** `200` answer of `POST /v1/handoff/claim`: the claiming device's own page secret for the session. */
export interface HandoffClaim {
  /** Use as the element's `session` (Bearer of the page routes); a secret of this device alone. */
  clientSecret: string;
  sessionId: string;
}

/** Which device holds a session, as `GET /v1/session` tells each page (`PageSession.handoff`). */
export interface PageHandoffState {
  /**
   * `none`: never handed off (or taken back), this page captures;
   * `pending`: a link is out, not used yet (this page still captures);
   * `claimed`: another device holds the session.
   */
  state: 'none' | 'pending' | 'claimed';
  /** Whether this page is the one that captures (false on the origin once claimed). */
  holder: boolean;
  /** Whether this page may offer a hand-off / take the session back (the origin). */
  origin: boolean;
  /** The pending link's expiry. */
  expiresAt?: string;
  /** To the device holding a handed-off session only: what the computer already answered. */
  answers?: PageHandoffAnswers;
}

/** Photos a session's holder reports as taken (never the image). */
export type HandoffRole = 'documentFront' | 'documentBack' | 'selfie';

/**
 * What `GET /v1/session/events` (Server-Sent Events, `Authorization: Bearer`) streams: `event:`
 * is the type, `data:` the JSON below, `id:` a per-session sequence (`Last-Event-ID` resumes).
 */
export type SessionEvent =
  | { type: 'handoff.created'; expiresAt: string }
  | { type: 'handoff.claimed' }
  | { type: 'handoff.expired' }
  | { type: 'handoff.reclaimed' }
  | { type: 'capture.progress'; step: string; photos: HandoffRole[] }
  | { type: 'session.submitted'; tokenOnboarding: string }
  | { type: 'session.completed'; tokenOnboarding: string; status: 'APPROVED' | 'REFUSED' | 'ERROR'; externalId?: string }
  | { type: 'session.expired' }
  | { type: 'session.cancelled' };

export type SessionEventType = SessionEvent['type'];

/** Body of `POST /v1/session/progress` (the holder only): where the person is, which photos are taken. */
export interface SessionProgressReport {
  step: string;
  photos: HandoffRole[];
}

/** The photos a progress report may name, as the element's capture roles. */
export const HANDOFF_ROLES: readonly HandoffRole[] = ['documentFront', 'documentBack', 'selfie'];

/** The flow's steps a progress report may name (the element's steps, in their order). */
export const HANDOFF_PROGRESS_STEPS = [
  'intro',
  'consent',
  'cpf',
  'document-type',
  'document-front',
  'document-back',
  'selfie',
  'proof-of-address',
  'review',
  'upload',
  'processing',
  'outcome',
] as const;
