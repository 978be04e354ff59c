/**
 * The upstream's instant checks a session asks for (docs/backend-api.md): what each one
 * calls, and how its result is reported.
 */
import type { OutcomeKind } from './classify.js';

/** What `POST /v1/sessions` may ask for in `checks`. */
export const SESSION_CHECKS = ['ocr', 'face_match', 'cnh_validation', 'document_inspection'] as const;
export type SessionCheck = (typeof SESSION_CHECKS)[number];

/** Every check a session can report: those asked for, and the proof of address its step brings. */
export type ReportedCheck = SessionCheck | 'proof_of_address';

/** The upstream service each check runs (document inspection then consults its `key` until final). */
export const CHECK_SERVICES = {
  ocr: 'SERVICE_OCR',
  face_match: 'SERVICE_FACE_MATCH',
  cnh_validation: 'SERVICE_VALIDATION_CNH',
  document_inspection: 'SERVICE_DIGITAL_DOCUMENTOSCOPY',
  proof_of_address: 'SERVICE_OCR_PROOF_OF_ADDRESS',
} as const satisfies Record<ReportedCheck, string>;

/** Optional steps a session may add to the flow. */
export const SESSION_STEPS = ['proof-of-address'] as const;
export type SessionStep = (typeof SESSION_STEPS)[number];

/**
 * Where a check stands: `pending` (asked, no final answer yet), `done` (processed: `result` holds
 * the upstream's data, a face mismatch included), `refused` (the upstream's business refusal,
 * never retried), `failed` (a technical failure, after the retries a check gets).
 */
export const CHECK_STATES = ['pending', 'done', 'refused', 'failed'] as const;
export type CheckState = (typeof CHECK_STATES)[number];

export interface CheckResult {
  check: ReportedCheck;
  /** The upstream service called. */
  service: string;
  state: CheckState;
  /** How the upstream's answer was classified (docs/upstream-api.md#errors-and-classification). */
  outcome?: OutcomeKind;
  /** The upstream's `result`, non-contract members removed, as received. */
  result?: Record<string, unknown>;
  /** The upstream's `status.message`, masked. */
  message?: string;
  externalId?: string;
  requestedAt: string;
  completedAt?: string;
}

/** `checks` of a session view: what was asked and where each stands; `completedAt` once none is pending. */
export interface SessionChecks {
  requested: ReportedCheck[];
  results: CheckResult[];
  completedAt?: string;
}

/** 200 answer of `POST /v1/session/document-prefill`: what the upstream's OCR read, for the person to confirm. */
export interface DocumentPrefill {
  cpf?: string;
  name?: string;
}
