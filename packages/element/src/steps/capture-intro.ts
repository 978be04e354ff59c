/**
 * What a capture step shows before the camera opens, above its actions: a drawing of the side to
 * photograph (or of the selfie's framing) and three tips. The drawing only repeats what the
 * heading says, so assistive technology skips it; the tips are a list it reads.
 */
import { html, type TemplateResult } from 'lit';
import type { CaptureRole } from '../image/pipeline.js';
import { captureTips } from '../messages/capture-tips.js';
import type { OnboardingLocale } from '../messages/index.js';
import { DRAWING_VIEWBOX, drawing, drawingKey } from './capture-drawings.js';

export function captureIntro(role: CaptureRole, documentType: string | null, locale: OnboardingLocale): TemplateResult {
  const key = drawingKey(role, documentType);
  const tips = captureTips[locale][role === 'selfie' ? 'selfie' : 'document'];
  return html`<div class="capture-intro">
    <svg class="capture-picture" part="capture-picture" data-drawing=${key} viewBox=${DRAWING_VIEWBOX} aria-hidden="true" focusable="false">
      ${drawing(key)}
    </svg>
    <ul class="capture-tips" part="capture-tips">
      ${tips.map((tip) => html`<li>${tip}</li>`)}
    </ul>
  </div>`;
}
