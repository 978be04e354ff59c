/** Small pieces every step view uses. Step views are pure: state and callbacks in, template out. */
import { html, type TemplateResult } from 'lit';

export function backButton(label: string, onBack: () => void): TemplateResult {
  return html`<button type="button" part="button" @click=${onBack}>${label}</button>`;
}

export function submitButton(label: string): TemplateResult {
  return html`<button type="submit" class="primary" part="button button-primary">${label}</button>`;
}
