/** The steps of the flow and the rules that decide which of them a person goes through. */
import type { CaptureRole } from '../image/pipeline.js';

export const ONBOARDING_STEPS = [
  'intro',
  'consent',
  'cpf',
  'document-type',
  'document-front',
  'document-back',
  'selfie',
  'review',
  'upload',
  'processing',
  'outcome',
] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];

/**
 * The steps with a Back: from the CPF up to the review, what the person fills in or photographs.
 * Not the intro and consent (nothing before them), nor the sending and after (nothing to undo).
 */
export function offersBack(step: OnboardingStep): boolean {
  const at = ONBOARDING_STEPS.indexOf(step);
  return at >= ONBOARDING_STEPS.indexOf('cpf') && at <= ONBOARDING_STEPS.indexOf('review');
}

/**
 * Where the flow starts, and starts over: the intro (what the person needs, how long it takes).
 * It is not one of the progress stages: nothing has been done yet.
 */
export const FIRST_STEP = ONBOARDING_STEPS[0];

export const CAPTURE_STEPS = {
  'document-front': 'documentFront',
  'document-back': 'documentBack',
  selfie: 'selfie',
} as const satisfies Record<string, CaptureRole>;
export type CaptureStep = keyof typeof CAPTURE_STEPS;

export function isCaptureStep(step: OnboardingStep): step is CaptureStep {
  return step in CAPTURE_STEPS;
}

export function stepForRole(role: CaptureRole): CaptureStep {
  return role === 'documentFront' ? 'document-front' : role === 'documentBack' ? 'document-back' : 'selfie';
}

export const DEFAULT_DOCUMENT_TYPES = 'CNH,RG';

/** Document types photographed on one side only. Every other type (CNH, RG, RNE, ...) has a back. */
const SINGLE_SIDED = new Set(['PASSPORT']);

/** `"cnh, RG,,rg"` -> `["CNH", "RG"]`; falls back to the default list when nothing usable is left. */
export function parseDocumentTypes(attribute: string | null | undefined): string[] {
  const types = (attribute ?? '')
    .split(',')
    .map((t) => t.trim().toUpperCase())
    .filter((t) => /^[A-Z0-9_-]{1,40}$/.test(t));
  const unique = [...new Set(types)];
  return unique.length > 0 ? unique : DEFAULT_DOCUMENT_TYPES.split(',');
}

export function documentHasBack(type: string | null | undefined): boolean {
  return !!type && !SINGLE_SIDED.has(type);
}

/** Where a flow handed to a phone with the computer's answers resumes: the first photo (none is carried). */
export const RESUME_STEP = 'document-front';

/**
 * The steps this person goes through, in order, for the chosen document type; from the first
 * photo on when `resumed` (a phone given the computer's answers never goes through them again).
 */
export function stepSequence(documentType: string | null | undefined, resumed = false): OnboardingStep[] {
  const steps = ONBOARDING_STEPS.filter((s) => s !== 'document-back' || documentHasBack(documentType ?? 'CNH'));
  return steps.slice(resumed ? steps.indexOf(RESUME_STEP) : 0);
}

/** Capture roles needed for a document type, in capture order. */
export function rolesFor(documentType: string | null | undefined): CaptureRole[] {
  return documentHasBack(documentType ?? 'CNH') ? ['documentFront', 'documentBack', 'selfie'] : ['documentFront', 'selfie'];
}

/**
 * The steps a person is shown in the progress indicator: what they recognise as a step. Upload,
 * processing and outcome are what happens after sending, not something to do; CPF and document
 * type are one "data" step, and the sides of a document one "document" step.
 */
export const PROGRESS_STAGES = ['consent', 'data', 'document', 'selfie', 'review'] as const;
export type ProgressStage = (typeof PROGRESS_STAGES)[number];

export function stageOf(step: OnboardingStep): ProgressStage | null {
  switch (step) {
    case 'consent':
      return 'consent';
    case 'cpf':
    case 'document-type':
      return 'data';
    case 'document-front':
    case 'document-back':
      return 'document';
    case 'selfie':
      return 'selfie';
    case 'review':
      return 'review';
    default:
      return null;
  }
}
