/**
 * What `<onboarding-flow>` shows, composed from its controllers: the frame every step is shown in
 * (the header with the stages, the step's section labelled by the heading that navigation
 * focuses, the polite live region), each step's heading, and which view has the step.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { sessionHeading, sessionStep, stagesList, stepHeading } from '../steps/index.js';
import { backButton } from '../steps/shared.js';
import { endingIcon, type Ending } from '../steps/ending-icon.js';
import { renderFormStep } from './form-steps-view.js';
import type { FlowParts } from './flow-parts.js';
import { needsPhotoSteps } from './photo-steps-controller.js';
import { FIRST_STEP, flowShapeOf, offersBack, type OnboardingStep } from './steps.js';

/** Whether the session keeps the flow from starting: being read, or unusable. */
const sessionBlocks = (p: FlowParts): boolean => p.nav.step === FIRST_STEP && p.session.blocks;

export function flowHeading(p: FlowParts, step: OnboardingStep): string {
  if (p.handoff.mode) return p.handoff.heading;
  const m = p.context.current.messages;
  if (step === FIRST_STEP && sessionBlocks(p)) return sessionHeading(m, p.session.problem);
  if (step === 'cpf' && p.details.lockedKind === 'cnpj') return m.cpf.headingCnpj;
  const submission = p.photo.submission;
  return stepHeading(m, step, {
    documentType: p.details.documentType,
    outcome: submission?.outcome?.status ?? null,
    uploadFailed: !!submission?.uploadError,
  });
}

/**
 * Back, before the heading, where the step offers it and it leads somewhere (not on the step a
 * handed-off flow resumed at); never over a blocking session or the hand-off.
 */
function backControl(p: FlowParts, step: OnboardingStep): TemplateResult | typeof nothing {
  if (p.handoff.mode || sessionBlocks(p) || !offersBack(step) || !p.nav.canGoBack) return nothing;
  return backButton(p.context.current.messages.flow.back, () => p.nav.back());
}

/** Which ending the step shows, if it is one: an outcome, or a session that cannot be used (not one that failed to load). */
function endingOf(p: FlowParts, step: OnboardingStep): Ending | null {
  if (p.handoff.mode) return null;
  if (step === 'outcome') {
    const status = p.photo.submission?.outcome?.status;
    return status ? (status.toLowerCase() as Ending) : null;
  }
  // A session that cannot be used: only a link that is not valid is an error; the others say what became of it.
  const problem = sessionBlocks(p) ? p.session.problem : null;
  return !problem || problem === 'unavailable' ? null : problem === 'invalid' ? 'error' : 'refused';
}

/** The frame every step is shown in, with the step's heading and view. */
export function renderFlow(p: FlowParts): TemplateResult {
  const step = p.nav.step;
  const { messages: m, locale } = p.context.current;
  const busy = p.session.state === 'loading' || (p.photo.loading && needsPhotoSteps(step));
  const ending = endingOf(p, step);
  return html`
    <div class="base" part="base" lang=${locale}>
      <div class="header" part="header">
        <slot name="logo"></slot>
        <p>${m.flow.title}</p>
        ${sessionBlocks(p) || p.handoff.mode ? nothing : stagesList(m, step, p.details.documentType, flowShapeOf(p.session.session))}
      </div>
      <section class="step" part="step" aria-labelledby="heading" aria-busy=${busy ? 'true' : 'false'} data-step=${p.handoff.mode ? 'handoff' : step} data-ending=${ending ?? nothing}>
        ${backControl(p, step)}
        ${ending ? endingIcon(ending) : nothing}
        <h2 id="heading" part="heading" tabindex="-1">${flowHeading(p, step)}</h2>
        ${renderStep(p, step)}
      </section>
      <div class="sr-only" role="status" aria-live="polite" aria-atomic="true">${p.nav.announcement}</div>
    </div>
  `;
}

function renderStep(p: FlowParts, step: OnboardingStep): TemplateResult {
  const m = p.context.current.messages;
  if (p.handoff.mode) return p.handoff.render() ?? sessionStep({ m, problem: null, onRetry: () => undefined });
  if (needsPhotoSteps(step)) return renderPhotoStep(p, step);
  if (sessionBlocks(p)) return sessionStep({ m, problem: p.session.problem, onRetry: () => void p.session.load() });
  return renderFormStep(step, p);
}

function renderPhotoStep(p: FlowParts, step: OnboardingStep): TemplateResult {
  const { handoff, details } = p;
  const alone = p.session.state === 'none';
  return p.photo.render(step, {
    heading: (s) => flowHeading(p, s),
    autoCapture: !p.host.manualCapture,
    handoff: handoff.available ? { noCamera: handoff.noCamera, open: () => void handoff.open('offer') } : null,
    documentType: details.documentType,
    lockedTaxId: !!details.lockedKind,
    proofOfAddress: !!flowShapeOf(p.session.session).proofOfAddress,
    // A session's backend is told the outcome; without one, only this page learns it.
    canClose: !alone,
    // "Start again", except under a session: it yields one onboarding, so a new flow could only be refused.
    onRestart: alone ? () => p.host.start() : undefined,
    // New photos with what the person entered kept; after a reload nothing entered is left, so it starts over.
    onRetryPhotos: alone ? () => (details.consent && details.documentType ? p.photo.retry() : p.host.start()) : undefined,
    host: p.host,
    session: p.session.lastRead,
  });
}
