/**
 * What a page learns of the person a session is for, and how a creation gets back what the page
 * was not shown. Pages are read by whoever holds a page secret (a phone, a shared computer), so
 * they see the least that lets the person recognise themselves: the tax id masked, the first name.
 */
import { maskTaxIdForPage, type PageSession, type SessionStatus, type ValidCreateOnboardingBytes } from '@onboarding-kit/contract';
import type { SessionRecord } from '../store/backend-state.js';

/** The first word of a name (`Maria` of `Maria Silva`), or undefined for none. */
export function firstName(name: string | undefined): string | undefined {
  return name?.trim().split(/\s+/)[0] || undefined;
}

/** `PageSession.prefill`: while the session is open and unused, the masked tax id and the first name; else nothing. */
export function pagePrefill(session: SessionRecord, status: SessionStatus): PageSession['prefill'] {
  const prefill: PageSession['prefill'] = {};
  if (status !== 'open' || session.tokenOnboarding) return prefill;
  if (session.taxId) prefill[session.taxId.kind] = maskTaxIdForPage(session.taxId.value);
  const first = firstName(session.name);
  if (first) prefill.name = first;
  return prefill;
}

/**
 * The creation as it goes upstream: a page that left the name it was shown (the session's first
 * name) or sent none creates with the session's whole name. A name the person changed stays theirs.
 */
export function withSessionName(valid: ValidCreateOnboardingBytes, session: SessionRecord): ValidCreateOnboardingBytes {
  if (!session.name) return valid;
  const sent = valid.name?.trim();
  return !sent || sent === firstName(session.name) ? { ...valid, name: session.name } : valid;
}

/**
 * The tax id a creation body may leave out: the session's own, else the CPF the computer carried
 * to the phone holding the session (handoff/handoff-answers.ts), which the phone holds masked only.
 */
export function creationTaxId(session: SessionRecord | null | undefined): ValidCreateOnboardingBytes['taxId'] | undefined {
  if (!session) return undefined;
  if (session.taxId) return session.taxId;
  const cpf = session.handoff?.holderHash !== undefined ? session.handoffAnswers?.cpf : undefined;
  return cpf ? { kind: 'cpf', value: cpf } : undefined;
}

/** A creation from the phone that sent no name goes with the one the computer carried (the phone never asked it). */
export function withCarriedName(valid: ValidCreateOnboardingBytes, session: SessionRecord): ValidCreateOnboardingBytes {
  const name = session.handoff?.holderHash !== undefined ? session.handoffAnswers?.name : undefined;
  return name && !valid.name?.trim() ? { ...valid, name } : valid;
}
