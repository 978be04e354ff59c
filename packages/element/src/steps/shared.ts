/** Small pieces every step view uses. Step views are pure: state and callbacks in, template out. */
import { html, type TemplateResult } from 'lit';
import type { Messages } from '../messages/index.js';

export function backButton(label: string, onBack: () => void): TemplateResult {
  return html`<button type="button" part="button" @click=${onBack}>${label}</button>`;
}

/** A lazily loaded file the page does not serve, said where its part would show: the page's fault, not the person's. */
export function partMissing(m: Messages): TemplateResult {
  return html`<p class="error" part="error" role="alert" data-part-failed="missing">${m.flow.partMissing}</p>`;
}

export function submitButton(label: string): TemplateResult {
  return html`<button type="submit" class="primary" part="button button-primary">${label}</button>`;
}
