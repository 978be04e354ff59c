/**
 * The one action layout of every step (docs/distribution.md, Parts): the step's one main action,
 * full width at the bottom of the column where a thumb reaches it (sticky on phones, by the
 * styles in shared.styles.ts), its other actions as text links above it, likeliest lowest, so that no two
 * buttons of equal weight compete and no row of buttons wraps into odd places. The main action
 * comes first in the markup, so that the keyboard reaches it right after the step's content.
 *
 * Written against a Lit handed in, so that the lazily loaded parts (the hand-off panel) lay out
 * their actions the same way without a second copy of Lit; steps/shared.ts binds it to the
 * element's own.
 */
import type { TemplateResult, html as litHtml } from 'lit';

/** One action: a template, or Lit's `nothing` (a symbol) where the step does not offer it. */
export type Action = TemplateResult | symbol | null | undefined;

export interface ActionBar {
  /** The step's main action (a `.primary` button or label), if it has one. */
  primary?: Action;
  /** The other actions, likeliest first (lowest, next to the main one), as text links (`.link`) above it. */
  secondary?: readonly Action[];
}

/** The bar stacks its actions bottom up, the main one lowest: the next one up is the next one tabbed to. */
export function actionBarWith(html: typeof litHtml, nothing: symbol, bar: ActionBar): TemplateResult {
  return html`<div class="actions" part="actions">${bar.primary ?? nothing}${bar.secondary ?? nothing}</div>`;
}
