/** The heading of each step: what the `<h2>` shows and what a step change announces. */
import type { TerminalStatus } from '@onboarding-kit/contract';
import type { Messages } from '../messages/index.js';
import { documentHasBack, type OnboardingStep } from '../onboarding-flow/steps.js';

export interface HeadingContext {
  /** The chosen document type (`CNH`, `RG`, ...), named in the capture headings. */
  documentType: string | null;
  /** The final status, which picks the outcome heading. */
  outcome: TerminalStatus | null;
  /** The upload failed and its error shows: the heading says so rather than "Enviando". */
  uploadFailed?: boolean;
}

export function stepHeading(m: Messages, step: OnboardingStep, context: HeadingContext): string {
  const type = context.documentType ?? '';
  const documentName = m.documentType.names[type] ?? type;
  switch (step) {
    case 'intro':
      return m.intro.heading;
    case 'consent':
      return m.consent.heading;
    case 'cpf':
      return m.cpf.heading;
    case 'document-type':
      return m.documentType.heading;
    case 'document-front':
      // A passport is photographed on one page only: its name says it all.
      return documentHasBack(type) ? m.capture.headingFront(type) : documentName;
    case 'document-back':
      return m.capture.headingBack(type);
    case 'selfie':
      return m.capture.headingSelfie;
    case 'proof-of-address':
      return m.capture.headingProofOfAddress;
    case 'review':
      return m.review.heading;
    case 'upload':
      return context.uploadFailed ? m.upload.errorHeading : m.upload.heading;
    case 'processing':
      return m.processing.heading;
    case 'outcome':
      return context.outcome === 'APPROVED'
        ? m.outcome.approvedHeading
        : context.outcome === 'REFUSED'
          ? m.outcome.refusedHeading
          : m.outcome.errorHeading;
  }
}
