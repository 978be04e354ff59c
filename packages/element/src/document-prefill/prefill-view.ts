/**
 * What the CPF step shows of the data read from the document: while it is read, a line (and a
 * way to type the CPF instead of waiting); once read, the CPF (masked, with a way to show it) and
 * the name, to confirm or correct; where nothing could be read, a plain line above the usual form.
 */
import { html, type TemplateResult } from 'lit';
import { actionBar, linkButton, primaryButton } from '../steps/shared.js';
import type { DocumentPrefillController } from './prefill-controller.js';

/** The panel, and whether it stands in for the CPF form (which shows otherwise, below it). */
export interface PrefillPanel {
  panel: TemplateResult;
  hideForm: boolean;
}

export function prefillPanel(c: DocumentPrefillController): PrefillPanel | null {
  const state = c.state;
  const t = c.texts;
  if (state.kind === 'none' || c.correcting) return null;
  if (state.kind === 'reading') {
    return {
      hideForm: true,
      panel: html`<div part="body"><p class="muted" part="document-prefill">${t.reading}</p></div>
        ${actionBar({ secondary: [linkButton(t.typeIt, () => c.correct())] })}`,
    };
  }
  if (state.kind === 'read' && state.read.cpf) {
    const cpf = state.read.cpf;
    return {
      hideForm: true,
      panel: html`
        <div part="body">
          <p>${t.intro}</p>
          <dl class="prefill" part="document-prefill">
            <dt>${t.cpf}</dt>
            <dd>
              <span data-prefill-cpf>${c.shownCpf(cpf)}</span>
              <button type="button" class="link" part="button button-link" aria-pressed=${c.revealed ? 'true' : 'false'} @click=${() => c.toggleReveal()}>
                ${t.show}
              </button>
            </dd>
            ${state.read.name ? html`<dt>${t.name}</dt><dd data-prefill-name>${state.read.name}</dd>` : ''}
          </dl>
        </div>
        ${actionBar({ primary: primaryButton(t.confirm, () => c.confirm()), secondary: [linkButton(t.correct, () => c.correct())] })}
      `,
    };
  }
  const line = state.kind === 'read' ? t.noCpf : state.kind === 'unreadable' ? t.unreadable : t.failed;
  return { hideForm: false, panel: html`<p class="hint" part="document-prefill">${line}</p>` };
}
