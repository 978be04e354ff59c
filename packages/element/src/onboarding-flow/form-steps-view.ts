/**
 * The views of the steps before the photos (intro, consent, CPF, document type), rendered by the
 * element from the state of its details controller and what it passes in.
 */
import { html, type TemplateResult } from 'lit';
import type { DetailsController } from '../controllers/details-controller.js';
import type { NavigationController } from '../controllers/navigation-controller.js';
import type { Messages, OnboardingLocale } from '../messages/index.js';
import { consentStep, cpfStep, documentTypeStep, introStep } from '../steps/index.js';
import type { LazyTextsController } from './lazy-texts.js';
import { documentHasBack, parseDocumentTypes, rolesFor, type OnboardingStep } from './steps.js';

export interface FormStepContext {
  m: Messages;
  locale: OnboardingLocale;
  details: DetailsController;
  nav: NavigationController;
  /** The full consent text, once loaded. */
  texts: LazyTextsController;
  /** The document types offered, comma-separated. */
  documentTypes: string;
  /** The person declined consent. */
  onDecline: () => void;
}

export function renderFormStep(step: OnboardingStep, c: FormStepContext): TemplateResult {
  const { m, details, nav, texts } = c;
  const onBack = () => nav.back();
  switch (step) {
    case 'intro': {
      const types = parseDocumentTypes(c.documentTypes);
      // The photos of the offered document that has the most: a back side is pictured if any has one.
      return introStep({ m, types, roles: rolesFor(types.find((t) => documentHasBack(t)) ?? types[0]), onStart: () => nav.next() });
    }
    case 'consent':
      return consentStep({
        m,
        checked: details.consent,
        error: details.consentError,
        full: texts.consent?.[c.locale] ?? null,
        onChange: (e) => details.onConsentChange(e),
        onSubmit: (e) => details.onConsentSubmit(e),
        onDecline: c.onDecline,
        // A failed fetch of the full text is tried again when the person opens it.
        onToggle: () => texts.loadConsent(),
      });
    case 'cpf':
      return cpfStep({
        m,
        cpf: details.cpf,
        name: details.name,
        cpfError: details.cpfError,
        nameError: details.nameError,
        locked: details.lockedKind,
        onCpfInput: (e) => details.onCpfInput(e),
        onNameInput: (e) => details.onNameInput(e),
        onSubmit: (e) => details.onCpfSubmit(e),
        onBack,
      });
    case 'document-type':
      return documentTypeStep({
        m,
        types: parseDocumentTypes(c.documentTypes),
        selected: details.documentType,
        error: details.documentTypeError,
        onChange: (e) => details.onDocumentTypeChange(e),
        onSubmit: (e) => details.onDocumentTypeSubmit(e),
        onBack,
      });
    default:
      return html``;
  }
}
