/**
 * What the computer hands over with an offer (docs/page-api.md#hand-off): the person's answers
 * as the flow's form holds them, once consent was given. Sent in the offer's body only, never in
 * the link. Part of the lazily loaded hand-off file: the first load only passes the form along.
 */
import { isPlainTextField, isValidCpf, onlyDigits, type HandoffAnswers } from '@onboarding-kit/contract';

/** What the hand-off reads of the flow's form (its details controller). */
export interface HandoffForm {
  /** When consent was given (ms since the epoch), or null before. */
  readonly consentAt: number | null;
  /** The CPF as shown (masked as typed). */
  readonly cpf: string;
  readonly name: string;
  readonly documentType: string | null;
  /** Set when the session fixes the tax id: the companion has it, nothing is sent. */
  readonly lockedKind: 'cpf' | 'cnpj' | null;
}

/** The answers to send (null before consent): a CPF only when typed whole and valid, a name only when plain text. */
export function handoffAnswers(form: HandoffForm): HandoffAnswers | null {
  if (!form.consentAt) return null;
  const name = form.name.trim();
  return {
    consentAt: new Date(form.consentAt).toISOString(),
    ...(!form.lockedKind && isValidCpf(form.cpf) && { cpf: onlyDigits(form.cpf) }),
    ...(name && isPlainTextField(name) && { name }),
    ...(form.documentType && { documentType: form.documentType }),
  };
}
