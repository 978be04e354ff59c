/**
 * The review: every photo side by side in one compact grid, each with a retake link, so that
 * the send button is on the first screen of a phone. The selfie keeps its portrait shape, and a
 * photo kept although a check refused it says so, with the reason, in its text and its picture's name.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { CaptureRole } from '../image/pipeline.js';
import type { Messages } from '../messages/index.js';
import { actionBar, primaryButton } from './shared.js';

export interface ReviewView {
  m: Messages;
  roles: readonly CaptureRole[];
  previews: Partial<Record<CaptureRole, string>>;
  /** The heading of each photo's capture step ("Frente da CNH"), as the grid names it. */
  labels: Partial<Record<CaptureRole, string>>;
  /** Photos kept although a check refused them: why it refused each. */
  kept: Partial<Record<CaptureRole, string>>;
  /** "Mantida mesmo assim" (with the after-send texts; until they load, the reason alone). */
  keptLabel: string | null;
  /** The proof of address, where the session asks for one: its picture, or a PDF's description (both null: none yet). */
  proof: { label: string; previewUrl: string | null; description: string | null } | null;
  cancelled: boolean;
  onRetake: (role: CaptureRole | 'proofOfAddress') => void;
  onSend: () => void;
}

export function reviewStep(v: ReviewView): TemplateResult {
  const m = v.m.review;
  return html`
    <div part="body">
      <p>${m.intro}</p>
      ${v.cancelled ? html`<p role="status">${v.m.upload.cancelled}</p>` : nothing}
      <ul class="thumbs">
        ${v.roles.map((role) => {
          const url = v.previews[role];
          const label = v.labels[role] ?? m.roles[role];
          const kept = v.kept[role];
          const flag = kept ? (v.keptLabel ? `${v.keptLabel}: ${kept}` : kept) : '';
          return html`
            <li>
              ${
                url
                  ? html`<img
                      class=${role === 'selfie' ? 'thumbnail portrait' : 'thumbnail'}
                      part="thumbnail"
                      src=${url}
                      alt=${flag ? `${v.m.capture.previewAlt(label)}. ${flag}` : v.m.capture.previewAlt(label)}
                    />`
                  : nothing
              }
              ${label} ${kept ? html`<span class="kept" part="kept-flag"><span aria-hidden="true">⚠ </span>${flag}</span>` : nothing}
              <button type="button" class="link" part="button retake" data-retake=${role} @click=${() => v.onRetake(role)}>
                ${m.retakeShort}<span class="sr-only">: ${m.roles[role]}</span>
              </button>
            </li>
          `;
        })}
        ${v.proof ? proofItem(v, v.proof) : nothing}
      </ul>
    </div>
    ${actionBar({
      primary: primaryButton(
        m.send,
        v.onSend,
        v.roles.some((r) => !v.previews[r]) || (!!v.proof && !v.proof.previewUrl && !v.proof.description),
      ),
    })}
  `;
}

/** The proof of address in the grid: its picture, or the PDF's name and size, with its retake. */
function proofItem(v: ReviewView, proof: NonNullable<ReviewView['proof']>): TemplateResult {
  return html`
    <li>
      ${
        proof.previewUrl
          ? html`<img class="thumbnail" part="thumbnail" src=${proof.previewUrl} alt=${v.m.capture.previewAlt(proof.label)} />`
          : proof.description
            ? fileTile()
            : nothing
      }
      ${proof.label} ${proof.description && !proof.previewUrl ? html`<span class="proof-file" part="proof-file">${proof.description}</span>` : nothing}
      <button type="button" class="link" part="button retake" data-retake="proofOfAddress" @click=${() => v.onRetake('proofOfAddress')}>
        ${v.m.review.retakeShort}<span class="sr-only">: ${proof.label}</span>
      </button>
    </li>
  `;
}

/** A PDF in the grid: a page with its corner folded, where a picture would be (the text beside it names the file). */
function fileTile(): TemplateResult {
  return html`
    <span class="thumbnail file-tile" part="thumbnail file-tile" aria-hidden="true">
      <svg viewBox="0 0 24 30" width="40" height="50" focusable="false">
        <path d="M2 1h13l7 7v21H2z" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round" />
        <path d="M15 1v7h7" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round" />
      </svg>
      <span class="file-tile-type">PDF</span>
    </span>
  `;
}
