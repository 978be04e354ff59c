/**
 * The views of the steps before the photos (intro, consent, CPF, document type), rendered by the
 * element from the state of its details controller and the session's document types.
 */
import { html, type TemplateResult } from 'lit';
import { OnboardingCancelEvent } from '../events.js';
import { consentStep, cpfStep, documentTypeStep, introStep } from '../steps/index.js';
import type { FlowParts } from './flow-parts.js';
import { documentHasBack, flowShapeOf, parseDocumentTypes, rolesFor, type OnboardingStep } from './steps.js';

export function renderFormStep(step: OnboardingStep, p: FlowParts): TemplateResult {
  const { details, nav, texts } = p;
  const { messages: m, locale } = p.context.current;
  // The session's document types when it names some, else the attribute's.
  const documentTypes = p.session.documentTypes(p.host.documentTypes);
  switch (step) {
    case 'intro': {
      const types = parseDocumentTypes(documentTypes);
      // The photos of the offered document that has the most: a back side is pictured if any has one.
      const { handoff } = p;
      return introStep({
        m,
        types,
        roles: rolesFor(types.find((t) => documentHasBack(t)) ?? types[0]),
        onStart: () => nav.next(),
        onHandoff: handoff.available && handoff.noCamera ? () => void handoff.open('offer') : null,
      });
    }
    case 'consent':
      return consentStep({
        m,
        checked: details.consent,
        error: details.consentError,
        full: texts.consent?.[locale] ?? null,
        controller: p.host.controllerName,
        privacyUrl: p.host.privacyUrl,
        onChange: (e) => details.onConsentChange(e),
        onSubmit: (e) => details.onConsentSubmit(e),
        onDecline: () => p.host.dispatchEvent(new OnboardingCancelEvent({ step: nav.step })),
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
        read: flowShapeOf(p.session.session).cpfAfterDocument ? p.photo.prefillPanel() : null,
        onCpfInput: (e) => details.onCpfInput(e),
        onNameInput: (e) => details.onNameInput(e),
        onSubmit: (e) => details.onCpfSubmit(e),
      });
    case 'document-type':
      return documentTypeStep({
        m,
        types: parseDocumentTypes(documentTypes),
        selected: details.documentType,
        error: details.documentTypeError,
        onChange: (e) => details.onDocumentTypeChange(e),
        onSubmit: (e) => details.onDocumentTypeSubmit(e),
      });
    default:
      return html``;
  }
}
