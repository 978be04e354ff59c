/**
 * The rules of the hand-off between devices (docs/page-api.md#hand-off), as pure functions of a
 * session record: who holds it, what each page is told, and the session's event log.
 */
import {
  maskTaxIdForPage,
  type PageHandoffAnswers,
  type PageHandoffState,
  type PageSession,
  type SessionEvent,
} from '@onboarding-kit/contract';
import { hashSecret, keyMatches } from '../auth/access-key.js';
import { DomainError } from '../errors/domain-error.js';
import type { SessionHandoffOffer, SessionLogEntry, SessionRecord, SessionSecretKind } from '../store/backend-state.js';

/** A page that presented one of its session's secrets. The secret stays in memory, for constant-time checks only. */
export interface PageCaller {
  session: SessionRecord;
  kind: SessionSecretKind;
  secret: string;
}

/** Events a session's log keeps (older ones go first); a reconnection older than them gets what is left. */
const SESSION_LOG_MAX = 32;

/**
 * The store key of a link's token or a short code: the hash of the value behind its kind, so a
 * token is never found as a code nor a code as a token, whatever either is.
 */
export const handoffKeyHash = (kind: 'link' | 'code', value: string): string => hashSecret(`${kind}:${value}`);

export const sessionHandedOff = () => new DomainError('session_handed_off');

/** The origin (client secret or capture token) opened the session; a device got its secret from a hand-off claim. */
export const isOrigin = (caller: Pick<PageCaller, 'kind'>): boolean => caller.kind !== 'device';

/** Whether `caller` holds `session` (may capture and submit): the origin while no device does, else that device alone. */
export function holds(session: SessionRecord, caller: Pick<PageCaller, 'kind' | 'secret'>): boolean {
  const holderHash = session.handoff?.holderHash;
  if (isOrigin(caller)) return holderHash === undefined;
  return keyMatches(caller.secret, holderHash);
}

/** Whether `caller` may still read the session: the origin always, a device only while it holds it. */
export const stillValid = (session: SessionRecord, caller: Pick<PageCaller, 'kind' | 'secret'>): boolean =>
  isOrigin(caller) || holds(session, caller);

/** A pending link past its time is expired, whether or not anyone has marked it yet. */
export function offerState(offer: SessionHandoffOffer | undefined, nowMs: number): SessionHandoffOffer['state'] | 'none' {
  if (!offer) return 'none';
  return offer.state === 'pending' && Date.parse(offer.expiresAt) <= nowMs ? 'expired' : offer.state;
}

/** `PageSession.handoff` for the asking page. */
export function pageHandoffState(session: SessionRecord, caller: Pick<PageCaller, 'kind' | 'secret'>, nowMs: number): PageHandoffState {
  const offer = session.handoff?.offer;
  const answers = pageAnswers(session, caller);
  const state: PageHandoffState['state'] =
    session.handoff?.holderHash !== undefined ? 'claimed' : offerState(offer, nowMs) === 'pending' ? 'pending' : 'none';
  return {
    state,
    holder: holds(session, caller),
    origin: isOrigin(caller),
    ...(state === 'pending' && { expiresAt: offer!.expiresAt }),
    ...(answers && { answers }),
  };
}

/**
 * `GET /v1/session` for one page: its view with its hand-off state. On the device a computer
 * handed an open session to with its answers, the CPF typed there (masked) stands in the prefill
 * and the document type chosen there is the one offered, so the phone's form is filled as a
 * session's own prefill fills it, and the companion fills the whole CPF into the creation.
 */
export function pageSessionFor(view: PageSession, handoff: PageHandoffState): PageSession {
  const a = handoff.answers;
  if (!a || view.status !== 'open') return { ...view, handoff };
  const ownTaxId = view.prefill.cpf !== undefined || view.prefill.cnpj !== undefined;
  return {
    ...view,
    prefill: { ...view.prefill, ...(a.cpf && !ownTaxId && { cpf: a.cpf }) },
    ...(a.documentType && { documentTypes: [a.documentType] }),
    handoff,
  };
}

/** `PageHandoffState.answers`: the computer's answers, for the device holding a handed-off session only, the CPF masked. */
function pageAnswers(session: SessionRecord, caller: Pick<PageCaller, 'kind' | 'secret'>): PageHandoffAnswers | undefined {
  const a = session.handoffAnswers;
  if (!a || isOrigin(caller) || !holds(session, caller)) return undefined;
  return {
    consentAt: a.consentAt,
    ...(a.cpf && { cpf: maskTaxIdForPage(a.cpf) }),
    ...(a.documentType && { documentType: a.documentType }),
  };
}

/**
 * `session` with `event` appended to its log under the next sequence number. A progress report
 * replaces the previous one (only the latest is kept), and the log keeps its last
 * {@link SESSION_LOG_MAX} entries.
 */
export function withEvent(session: SessionRecord, event: SessionEvent, at: string): SessionRecord {
  const seq = (session.eventSeq ?? 0) + 1;
  const kept = (session.events ?? []).filter((e) => event.type !== 'capture.progress' || e.event.type !== 'capture.progress');
  const events: SessionLogEntry[] = [...kept, { seq, at, event }].slice(-SESSION_LOG_MAX);
  return { ...session, events, eventSeq: seq };
}
