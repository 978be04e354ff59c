/** The list of the steps a person recognises, above the current step. */
import { html, nothing, type TemplateResult } from 'lit';
import type { Messages } from '../messages/index.js';
import { PROGRESS_STAGES, documentHasBack, stageOf, type OnboardingStep } from '../onboarding-flow/steps.js';

/** The steps a person recognises, the current one marked; the document step counts its sides. Nothing where `step` is none of them. */
export function stagesList(messages: Messages, step: OnboardingStep, documentType: string | null): TemplateResult | typeof nothing {
  const m = messages.flow;
  const current = stageOf(step);
  if (!current) return nothing;
  // The steps before the current one read as done from the list's order (the styles colour them).
  const sub = current === 'document' && documentHasBack(documentType) ? ` · ${m.side(step === 'document-back' ? 2 : 1, 2)}` : '';
  // Where five labels have no room (the styles decide, by the width in text size), the list
  // shows its bars only and this line says where the person is ("Etapa 2 de 5: Dados").
  const compact = m.announceStep(`${m.stages[current]}${sub}`, PROGRESS_STAGES.indexOf(current) + 1, PROGRESS_STAGES.length);
  return html`
    <ol class="stages" part="stages" aria-label=${m.progressLabel}>
      ${PROGRESS_STAGES.map((stage) =>
        stage === current
          ? html`<li part="stage stage-current" aria-current="step"><span>${m.stages[stage]}${sub}</span></li>`
          : html`<li part="stage"><span>${m.stages[stage]}</span></li>`,
      )}
    </ol>
    <p class="stages-compact" aria-hidden="true">${compact}</p>
  `;
}
