/** Small pieces every step view uses. Step views are pure: state and callbacks in, template out. */
import { html, nothing, type TemplateResult } from 'lit';
import { actionBarWith, type ActionBar } from './action-bar.js';

export type { ActionBar } from './action-bar.js';

/**
 * The actions of a step, laid out as every step lays them out (action-bar.ts):
 * `actionBar({ primary: primaryButton(...), secondary: [linkButton(...)] })`.
 */
export function actionBar(bar: ActionBar): TemplateResult {
  return actionBarWith(html, nothing, bar);
}

/**
 * Back, in the step's header before its heading (never beside the main action, where it would be
 * tapped for it): compact, yet a 44 px target named by its text.
 */
export function backButton(label: string, onBack: () => void): TemplateResult {
  return html`<button type="button" class="back" part="back" @click=${onBack}><span aria-hidden="true">←</span>${label}</button>`;
}

/** The step's main action: a submit button without `onClick` (in the step's form), else a plain one. */
export function primaryButton(label: string, onClick?: () => void, disabled = false): TemplateResult {
  return html`<button type=${onClick ? 'button' : 'submit'} class="primary" part="button button-primary" ?disabled=${disabled} @click=${onClick}>
    ${label}
  </button>`;
}

/** A secondary action, shown as a text link. */
export function linkButton(label: string, onClick: () => void): TemplateResult {
  return html`<button type="button" class="link" part="button button-link" @click=${onClick}>${label}</button>`;
}
