/** The steps of the flow and the rules that decide which of them a person goes through. */
import type { PageSession } from '@onboarding-kit/contract';
import type { CaptureRole } from '../image/pipeline.js';

export const ONBOARDING_STEPS = [
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

/** The steps that take something the review shows and can retake: the photos, and the proof of address. */
export type RetakeStep = CaptureStep | 'proof-of-address';
export const isRetakeStep = (step: OnboardingStep): step is RetakeStep => isCaptureStep(step) || step === 'proof-of-address';

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
 * What a session changes in the flow: its optional steps, and the CPF read from the document
 * unless the session gives a tax id itself (nothing is then left to read).
 */
export function flowShapeOf(session: Pick<PageSession, 'prefillFromDocument' | 'steps' | 'prefill'> | null | undefined): FlowShape {
  if (!session) return {};
  const given = !!session.prefill.cpf || !!session.prefill.cnpj;
  return {
    ...(session.prefillFromDocument && !given && { cpfAfterDocument: true }),
    ...(session.steps?.includes('proof-of-address') && { proofOfAddress: true }),
  };
}

/** What a session changes in the flow's shape (absent members: the flow as it always is). */
export interface FlowShape {
  /**
   * The CPF and name are read from the document and confirmed after its photos (a session's
   * `prefillFromDocument`): the CPF step comes after the document's photos, the document type first.
   */
  cpfAfterDocument?: boolean;
  /** The proof-of-address step, after the selfie (a session's `steps`). */
  proofOfAddress?: boolean;
}

/**
 * The steps this person goes through, in order, for the chosen document type; from the first
 * photo on when `resumed` (a phone given the computer's answers never goes through them again).
 */
export function stepSequence(documentType: string | null | undefined, resumed = false, shape: FlowShape = {}): OnboardingStep[] {
  const steps = ONBOARDING_STEPS.filter(
    (s) => (s !== 'document-back' || documentHasBack(documentType ?? 'CNH')) && (s !== 'proof-of-address' || !!shape.proofOfAddress),
  );
  if (shape.cpfAfterDocument) {
    steps.splice(steps.indexOf('cpf'), 1);
    steps.splice(steps.indexOf('selfie'), 0, 'cpf');
  }
  return steps.slice(resumed ? steps.indexOf(RESUME_STEP) : 0);
}

/** Capture roles needed for a document type, in capture order. */
export function rolesFor(documentType: string | null | undefined): CaptureRole[] {
  return documentHasBack(documentType ?? 'CNH') ? ['documentFront', 'documentBack', 'selfie'] : ['documentFront', 'selfie'];
}

/**
 * The steps a person is shown in the progress indicator: what they recognise as a step. Upload,
 * processing and outcome are what happens after sending, not something to do; CPF and document
 * type are one "data" step, and the sides of a document one "document" step. The proof of
 * address is a stage of its own where the session asks for it.
 */
export const PROGRESS_STAGES = ['consent', 'data', 'document', 'selfie', 'address', 'review'] as const;
export type ProgressStage = (typeof PROGRESS_STAGES)[number];

/**
 * The stages this flow shows, in order: where the CPF is read from the document, the document
 * (its type and photos) comes before the data that confirms what was read.
 */
export function progressStages(shape: FlowShape = {}): ProgressStage[] {
  const first: ProgressStage[] = shape.cpfAfterDocument ? ['consent', 'document', 'data'] : ['consent', 'data', 'document'];
  return [...first, 'selfie', ...(shape.proofOfAddress ? (['address'] as const) : []), 'review'];
}

export function stageOf(step: OnboardingStep, shape: FlowShape = {}): ProgressStage | null {
  switch (step) {
    case 'consent':
      return 'consent';
    case 'document-type':
      return shape.cpfAfterDocument ? 'document' : 'data';
    case 'cpf':
      return 'data';
    case 'proof-of-address':
      return 'address';
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
