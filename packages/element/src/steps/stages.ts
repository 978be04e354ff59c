/** The list of the steps a person recognises, above the current step. */
import { html, nothing, type TemplateResult } from 'lit';
import type { Messages } from '../messages/index.js';
import { documentHasBack, progressStages, stageOf, type FlowShape, type OnboardingStep } from '../onboarding-flow/steps.js';

/** The steps a person recognises, the current one marked; the document step counts its sides. Nothing where `step` is none of them. */
export function stagesList(
  messages: Messages,
  step: OnboardingStep,
  documentType: string | null,
  shape: FlowShape = {},
): TemplateResult | typeof nothing {
  const m = messages.flow;
  const current = stageOf(step, shape);
  if (!current) return nothing;
  const stages = progressStages(shape);
  // The steps before the current one read as done from the list's order (the styles colour them).
  const side = step === 'document-front' || step === 'document-back';
  const sub = side && documentHasBack(documentType) ? ` · ${m.side(step === 'document-back' ? 2 : 1, 2)}` : '';
  // Where five labels have no room (the styles decide, by the width in text size), the list
  // shows its bars only and this line says where the person is ("Etapa 2 de 5: Dados").
  const compact = m.announceStep(`${m.stages[current]}${sub}`, stages.indexOf(current) + 1, stages.length);
  return html`
    <ol class="stages" part="stages" aria-label=${m.progressLabel}>
      ${stages.map((stage) =>
        stage === current
          ? html`<li part="stage stage-current" aria-current="step"><span>${m.stages[stage]}${sub}</span></li>`
          : html`<li part="stage"><span>${m.stages[stage]}</span></li>`,
      )}
    </ol>
    <p class="stages-compact" aria-hidden="true">${compact}</p>
  `;
}
