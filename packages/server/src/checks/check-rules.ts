/**
 * The instant checks' own rules (docs/backend-api.md#checks), pure: the upstream query each check
 * sends, and what its answer makes of the check. What is read from a document never enters here:
 * a check's verdict is the upstream's answer, nothing else.
 */
import {
  CHECK_SERVICES,
  type CheckResult,
  type Outcome,
  type ReportedCheck,
  type ValidCreateOnboardingBytes,
} from '@onboarding-kit/contract';
import type { SessionRecord } from '../store/backend-state.js';
import { photoSha256 } from '../onboardings/photo-sha256.js';
import { inspectionVerdict } from '../queries/inspection-rules.js';
import { safeUpstreamMessage } from '../upstream/upstream-error.js';

/** What the checks of one creation are run with: its photos (pure base64), kept in memory until the checks have them. */
export interface CheckInput {
  /** The session's CPF, sent with every check (the upstream ignores it where a service takes none). */
  cpf?: string;
  /** The document type the person chose. */
  documentType?: string;
  documentFront: string;
  documentBack?: string;
  selfie: string;
  proofOfAddress?: string;
  /** The OCR a document prefill ran on the same front photo: the `ocr` check takes it instead of asking again. */
  reusedOcr?: CheckResult;
}

const text = (view: Uint8Array | undefined): string | undefined => (view ? Buffer.from(view).toString('latin1') : undefined);

/**
 * The photos the session's checks need, copied out of the creation's body (whose buffer is reused
 * once the request ends); undefined when the session asked for no check.
 */
export function checkInputOf(valid: ValidCreateOnboardingBytes, session: SessionRecord): CheckInput | undefined {
  if (!session.checks?.requested.length) return undefined;
  const front = text(valid.images.documentFront?.base64);
  const selfie = text(valid.images.selfie?.base64);
  if (front === undefined || selfie === undefined) return undefined;
  const back = text(valid.images.documentBack?.base64);
  const proof = text(valid.proofOfAddress?.base64);
  const prefilled = session.documentPrefill?.ocr;
  return {
    ...(prefilled && prefilled.frontSha256 === photoSha256(front) && { reusedOcr: prefilled.result }),
    ...(session.taxId?.kind === 'cpf' && { cpf: session.taxId.value }),
    ...(valid.documentType && { documentType: valid.documentType }),
    documentFront: front,
    ...(back !== undefined && { documentBack: back }),
    selfie,
    ...(proof !== undefined && { proofOfAddress: proof }),
  };
}

/** A check's query, or why it cannot be sent (a photo it needs is missing). */
export type CheckQuery = { service: string; fields: Record<string, string> } | { missing: string };

const defined = (fields: Record<string, string | undefined>): Record<string, string> =>
  Object.fromEntries(Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined));

/** The query of `check` for `input`; the inspection needs its `key`. */
export function checkQuery(check: ReportedCheck, input: CheckInput, key?: string): CheckQuery {
  const { cpf, documentFront, documentBack, selfie } = input;
  const service = CHECK_SERVICES[check];
  switch (check) {
    case 'ocr':
      if (!input.documentType) return { missing: 'documentType' };
      return { service, fields: defined({ cpf, documentType: input.documentType, image1: documentFront, image2: documentBack }) };
    case 'face_match':
      return { service, fields: defined({ cpf, image1: selfie, image2: documentFront }) };
    case 'cnh_validation':
      if (!cpf) return { missing: 'cpf' };
      return { service, fields: { cpf, image1: selfie } };
    case 'document_inspection':
      if (!documentBack) return { missing: 'images.documentBack' };
      return { service, fields: defined({ cpf, key, image1: documentFront, image2: documentBack, selfie1: selfie }) };
    case 'proof_of_address':
      if (!input.proofOfAddress) return { missing: 'proofOfAddress' };
      return { service, fields: defined({ cpf, image1: input.proofOfAddress }) };
  }
}

/** Answers about the person's own data: the upstream's verdict, never retried. */
const BUSINESS_REFUSALS = new Set<Outcome['kind']>(['refused', 'face-not-found', 'missing-image']);

/** Whether a check's answer is a technical failure worth another try. */
export const retryable = (outcome: Outcome): boolean => !outcome.ok && !BUSINESS_REFUSALS.has(outcome.kind) && outcome.retryable;

/**
 * The final result of `check` from its upstream answer: `done` when processed (its `result` as
 * received, non-contract members removed by `classify`), `refused` for the upstream's answer about
 * the person's data, `failed` for a technical failure. The message is masked as every upstream
 * message the companion shows.
 */
export function checkResult(check: ReportedCheck, outcome: Outcome, at: string): CheckResult {
  const state = outcome.ok ? 'done' : BUSINESS_REFUSALS.has(outcome.kind) ? 'refused' : 'failed';
  const message = outcome.message !== undefined ? safeUpstreamMessage(outcome.message) : '';
  return {
    check,
    service: CHECK_SERVICES[check],
    state,
    outcome: outcome.kind,
    ...(outcome.result !== undefined && state === 'done' && { result: { ...outcome.result } as Record<string, unknown> }),
    ...(message && { message }),
    ...(outcome.externalId && { externalId: outcome.externalId }),
    requestedAt: at,
    completedAt: at,
  };
}

/** A check that could not be sent or whose call failed without an answer: `failed`, with what the companion knows. */
export const failedCheck = (check: ReportedCheck, message: string, at: string): CheckResult => ({
  check,
  service: CHECK_SERVICES[check],
  state: 'failed',
  message,
  requestedAt: at,
  completedAt: at,
});

/** Whether the inspection's answer ends it (the submission's or a consultation's); a running one stays pending. */
export const inspectionEnded = (outcome: Outcome): boolean => inspectionVerdict(outcome) !== 'pending';
