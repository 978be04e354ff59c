/**
 * The three form steps: LGPD consent (a short summary, the full text behind a disclosure),
 * CPF (and optional name), document type.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { PrefillPanel } from '../document-prefill/prefill-view.js';
import type { Messages } from '../messages/index.js';
import type { ConsentTextCatalog } from '../messages/load-consent-text.js';
import { actionBar, linkButton, primaryButton } from './shared.js';

export interface ConsentView {
  m: Messages;
  checked: boolean;
  error: boolean;
  /** The full text behind "Ler detalhes" and the summary's lines on biometrics and the controller, in the locale in effect; null until it has loaded. */
  full: ConsentTextCatalog['pt-BR'] | null;
  /** The data controller's name (empty: none configured, and the texts say so). */
  controller: string | null | undefined;
  /** Its privacy policy: linked only when it is an http(s) address, never a `javascript:` or `data:` one. */
  privacyUrl: string | null | undefined;
  onChange: (e: Event) => void;
  onSubmit: (e: SubmitEvent) => void;
  onDecline: () => void;
  /** The disclosure was opened or closed. */
  onToggle: () => void;
}

export function consentStep(v: ConsentView): TemplateResult {
  const m = v.m.consent;
  return html`
    <form part="body" novalidate @submit=${v.onSubmit}>
      <ul class="consent-summary">
        <li>${m.what}</li>
        <li>${m.why}</li>
        ${
          v.full
            ? html`<li>${v.full.biometricShort}</li>
                <li>
                  ${v.full.controller(v.controller)}
                  ${v.privacyUrl?.startsWith('http') ? html`<a href=${v.privacyUrl} target="_blank" rel="noopener noreferrer">${v.full.privacy}</a>` : nothing}
                </li>`
            : nothing
        }
      </ul>
      <details class="consent-details" @toggle=${v.onToggle}>
        <summary>${m.details}</summary>
        ${
          v.full
            ? html`
              <p>${v.full.intro}</p>
              <h3>${v.full.whatTitle}</h3>
              <p>${m.what}</p>
              <h3>${v.full.whyTitle}</h3>
              <p>${m.why}</p>
              <p>${v.full.biometric}</p>
              <h3>${v.full.whoTitle}</h3>
              <p>${v.full.who(v.controller)}</p>
              <h3>${v.full.keepTitle}</h3>
              <p>${v.full.keep(v.controller)}</p>
              <h3>${v.full.rightsTitle}</h3>
              <p>${v.full.rights(v.controller)}</p>
            `
            : nothing
        }
      </details>
      <slot name="consent-extra"></slot>
      <div class="check">
        <input
          id="consent"
          type="checkbox"
          .checked=${v.checked}
          aria-invalid=${v.error ? 'true' : 'false'}
          aria-describedby=${v.error ? 'consent-error' : nothing}
          @change=${v.onChange}
        />
        <label for="consent">${m.agree}</label>
      </div>
      ${v.error ? html`<p id="consent-error" class="error" part="error" role="alert">${m.required}</p>` : nothing}
      ${actionBar({ primary: primaryButton(v.m.flow.continue), secondary: [linkButton(m.decline, v.onDecline)] })}
    </form>
  `;
}

export type CpfProblem = 'errorEmpty' | 'errorIncomplete' | 'errorCheckDigits';

export interface CpfView {
  m: Messages;
  cpf: string;
  name: string;
  cpfError: CpfProblem | null;
  nameError: boolean;
  /** The tax id came from the service provider (a session): shown read-only, with a hint saying so. */
  locked?: 'cpf' | 'cnpj' | null;
  /** What was read from the document (a session's `prefillFromDocument`): above the form, or in its place until the person corrects it. */
  read?: PrefillPanel | null;
  onCpfInput: (e: InputEvent) => void;
  onNameInput: (e: InputEvent) => void;
  onSubmit: (e: SubmitEvent) => void;
}

export function cpfStep(v: CpfView): TemplateResult {
  const m = v.m.cpf;
  const locked = !!v.locked;
  if (v.read?.hideForm) return v.read.panel;
  return html`
    <form part="body" novalidate @submit=${v.onSubmit}>
      ${v.read?.panel ?? nothing}
      <p>${locked ? m.introLocked : m.intro}</p>
      <label class="field" for="cpf">${v.locked === 'cnpj' ? m.labelCnpj : m.label}</label>
      <input
        id="cpf"
        type="text"
        inputmode=${v.locked === 'cnpj' ? 'text' : 'numeric'}
        autocomplete="off"
        spellcheck="false"
        maxlength=${v.locked === 'cnpj' ? '18' : '14'}
        placeholder=${locked ? nothing : '000.000.000-00'}
        ?readonly=${locked}
        aria-readonly=${locked ? 'true' : nothing}
        data-locked=${locked ? v.locked : nothing}
        .value=${v.cpf}
        aria-invalid=${v.cpfError ? 'true' : 'false'}
        aria-describedby=${v.cpfError ? 'cpf-hint cpf-error' : 'cpf-hint'}
        @input=${v.onCpfInput}
      />
      <p id="cpf-hint" class=${locked ? 'hint locked' : 'hint'}>${locked ? m.lockedHint : m.hint}</p>
      ${v.cpfError ? html`<p id="cpf-error" class="error" part="error" role="alert">${m[v.cpfError]}</p>` : nothing}
      <label class="field" for="name">${m.nameLabel}</label>
      <input
        id="name"
        type="text"
        autocomplete="name"
        maxlength="200"
        .value=${v.name}
        aria-invalid=${v.nameError ? 'true' : 'false'}
        aria-describedby=${v.nameError ? 'name-error' : nothing}
        @input=${v.onNameInput}
      />
      ${v.nameError ? html`<p id="name-error" class="error" part="error" role="alert">${m.errorName}</p>` : nothing}
      ${actionBar({ primary: primaryButton(v.m.flow.continue) })}
    </form>
  `;
}

export interface DocumentTypeView {
  m: Messages;
  types: readonly string[];
  selected: string | null;
  error: boolean;
  onChange: (e: Event) => void;
  onSubmit: (e: SubmitEvent) => void;
}

export function documentTypeStep(v: DocumentTypeView): TemplateResult {
  const m = v.m.documentType;
  return html`
    <form part="body" novalidate @submit=${v.onSubmit}>
      <fieldset aria-describedby=${v.error ? 'doctype-error' : nothing}>
        <legend>${m.legend}</legend>
        ${v.types.map(
          (type) => html`
            <div class="option">
              <input
                type="radio"
                id=${`doctype-${type}`}
                name="document-type"
                .value=${type}
                .checked=${v.selected === type}
                aria-invalid=${v.error ? 'true' : 'false'}
                @change=${v.onChange}
              />
              <label for=${`doctype-${type}`}>${m.names[type] ?? type}</label>
            </div>
          `,
        )}
      </fieldset>
      ${v.error ? html`<p id="doctype-error" class="error" part="error" role="alert">${m.required}</p>` : nothing}
      ${actionBar({ primary: primaryButton(v.m.flow.continue) })}
    </form>
  `;
}
