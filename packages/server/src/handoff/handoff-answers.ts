/**
 * What an offer's body may carry to the phone (docs/page-api.md#hand-off), as a pure rule. The
 * CPF arrives in the offer's body only; the phone is shown it masked (`pageHandoffState`,
 * handoff-rules.ts), and the companion fills the whole one into the creation (sessions/person-rules.ts).
 */
import { isPlainTextField, isValidCpf, normalizeCpf } from '@onboarding-kit/contract';
import { DomainError } from '../errors/domain-error.js';
import type { SessionHandoffAnswers, SessionRecord } from '../store/backend-state.js';

/** How far ahead of the companion's clock a computer's clock may put the consent. */
const CONSENT_CLOCK_SKEW_MS = 5 * 60_000;

const invalid = (message: string, field: string) => new DomainError('invalid_field', message, { field });

/**
 * The answers of `POST /v1/session/handoff`'s body (`{ answers: {...} }`, or `{}`), checked
 * against the session: a valid CPF (none when the session fixes its own tax id), plain text for
 * the name, a document type the session offers, a consent time not in the future. Null: none sent.
 */
export function validateOfferAnswers(body: unknown, session: SessionRecord, nowMs: number): SessionHandoffAnswers | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new DomainError('invalid_request', 'The hand-off offer must be a JSON object: {"answers": {...}} or nothing.');
  const extra = Object.keys(body).find((k) => k !== 'answers');
  if (extra !== undefined)
    throw invalid(`Unknown member ${JSON.stringify(extra.slice(0, 40))}: an offer has answers only.`, extra.slice(0, 40));
  const answers = (body as { answers?: unknown }).answers;
  if (answers === undefined) return null;
  if (typeof answers !== 'object' || answers === null || Array.isArray(answers))
    throw invalid('answers must be an object: {"consentAt", "cpf", "name", "documentType"}.', 'answers');
  const a = answers as Record<string, unknown>;
  const unknown = Object.keys(a).find((k) => !['consentAt', 'cpf', 'name', 'documentType'].includes(k));
  if (unknown !== undefined)
    throw invalid(`Unknown member ${JSON.stringify(unknown.slice(0, 40))} of answers.`, `answers.${unknown.slice(0, 40)}`);
  const consentMs = typeof a.consentAt === 'string' && a.consentAt.length <= 40 ? Date.parse(a.consentAt) : NaN;
  if (!Number.isFinite(consentMs) || consentMs > nowMs + CONSENT_CLOCK_SKEW_MS)
    throw invalid('answers.consentAt must be the ISO 8601 time the person consented (the phone never asks again).', 'answers.consentAt');
  const out: SessionHandoffAnswers = { consentAt: new Date(consentMs).toISOString() };
  if (a.cpf !== undefined) {
    // The message never repeats what was sent: it is a CPF.
    const cpf = typeof a.cpf === 'string' ? normalizeCpf(a.cpf) : null;
    if (!cpf || !isValidCpf(cpf)) throw invalid('answers.cpf must be a valid CPF.', 'answers.cpf');
    if (session.taxId) throw invalid('This session has its own tax id: answers.cpf is not taken.', 'answers.cpf');
    out.cpf = cpf;
  }
  if (a.name !== undefined) {
    if (!isPlainTextField(a.name)) throw invalid('answers.name must be plain text of at most 200 characters.', 'answers.name');
    const name = a.name.trim();
    if (name) out.name = name;
  }
  if (a.documentType !== undefined) {
    const type = typeof a.documentType === 'string' ? a.documentType.trim().toUpperCase() : '';
    if (!/^[A-Z0-9_-]{1,40}$/.test(type) || (session.documentTypes.length > 0 && !session.documentTypes.includes(type)))
      throw invalid(
        `answers.documentType must be one the session offers${session.documentTypes.length > 0 ? `: ${session.documentTypes.join(', ')}` : ''}.`,
        'answers.documentType',
      );
    out.documentType = type;
  }
  return out;
}
