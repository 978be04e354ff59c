/**
 * The proof-of-address step (a session's `steps`): a file (a photo or a PDF) or, on a phone, a
 * photo from its camera app; then the proof as it will be sent (the picture, or the PDF's name
 * and size), to use or replace. A refused file says why, above the pickers.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { Messages } from '../messages/index.js';
import type { ProofTexts } from '../messages/proof-of-address.js';
import { actionBar, linkButton, primaryButton } from './shared.js';

export interface ProofView {
  m: Messages;
  t: ProofTexts;
  /** The proof taken: an image's preview, or the PDF's description. */
  proof: { previewUrl: string | null; description: string } | null;
  problem: string | null;
  checking: boolean;
  /** The limit as a person reads it (`4 MB`). */
  limit: string;
  /** A phone or tablet: its camera app can take the photo. */
  cameraApp: boolean;
  onFile: (e: Event) => void;
  onReplace: () => void;
  onUse: () => void;
}

export function proofStep(v: ProofView): TemplateResult {
  return v.proof ? proofTaken(v, v.proof) : proofSources(v);
}

function proofTaken(v: ProofView, proof: NonNullable<ProofView['proof']>): TemplateResult {
  return html`
    <div part="body">
      ${
        proof.previewUrl
          ? html`<img class="preview" part="preview" src=${proof.previewUrl} alt=${v.m.capture.previewAlt(v.m.capture.headingProofOfAddress)} />`
          : html`<p class="proof-file" part="proof-file">${proof.description}</p>`
      }
      <p>${v.t.accepted}</p>
    </div>
    ${actionBar({ primary: primaryButton(v.t.use, v.onUse), secondary: [linkButton(v.t.replace, v.onReplace)] })}
  `;
}

function proofSources(v: ProofView): TemplateResult {
  const t = v.t;
  return html`
    <div part="body">
      <p>${t.intro}</p>
      ${v.checking ? html`<p class="muted">${t.checking}</p>` : nothing}
      ${v.problem ? html`<p id="proof-error" class="error" part="error" role="alert">${v.problem}</p>` : nothing}
    </div>
    ${actionBar({
      primary: html`
        <label class="file-button primary" part="button button-primary">
          <input
            class="sr-only"
            type="file"
            accept="image/jpeg,image/png,image/webp,application/pdf"
            aria-describedby=${v.problem ? 'proof-hint proof-error' : 'proof-hint'}
            data-proof-file
            ?disabled=${v.checking}
            @change=${v.onFile}
          />
          ${t.chooseFile}
        </label>
        <span id="proof-hint" class="sr-only">${t.fileHint(v.limit)}</span>
      `,
      secondary: [
        v.cameraApp
          ? html`<label class="file-button link" part="button button-link camera-app">
              <input class="sr-only" type="file" accept="image/*" capture="environment" ?disabled=${v.checking} @change=${v.onFile} />
              ${t.takePhoto}
            </label>`
          : nothing,
      ],
    })}
  `;
}
