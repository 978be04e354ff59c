/**
 * The review: every photo side by side in one compact grid, each with a retake link, so that
 * the send button is on the first screen of a phone.
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
  cancelled: boolean;
  onRetake: (role: CaptureRole) => void;
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
          return html`
            <li>
              ${url ? html`<img class="thumbnail" part="thumbnail" src=${url} alt=${v.m.capture.previewAlt(label)} />` : nothing}
              ${label}
              <button type="button" class="link" part="button retake" data-retake=${role} @click=${() => v.onRetake(role)}>
                ${m.retakeShort}<span class="sr-only">: ${m.roles[role]}</span>
              </button>
            </li>
          `;
        })}
      </ul>
    </div>
    ${actionBar({
      primary: primaryButton(
        m.send,
        v.onSend,
        v.roles.some((r) => !v.previews[r]),
      ),
    })}
  `;
}
