/**
 * The hand-off panel's markup (handoff-panel.ts): pure render functions of the panel's state,
 * written with the element's own Lit, which the panel hands in (`lit`), so that the lazily loaded
 * file carries no second copy of it.
 */
import type { HandoffOffer } from '@onboarding-kit/contract';
import type { TemplateResult } from 'lit';
import { actionBarWith } from '../steps/action-bar.js';
import type { HandoffLink } from './handoff-link.js';
import type { HandoffLitKit } from './handoff-panel.js';
import { qrCode } from './qr.js';
import type { HandoffTexts } from './texts.js';

/** What the panel's views read, and the one action that lives in the panel itself. */
export interface HandoffPanelView {
  lit: Pick<HandoffLitKit, 'html' | 'nothing'>;
  t: HandoffTexts;
  link: HandoffLink;
  noCamera: boolean;
  /** What became of the last copy of the code. */
  notice: string | null;
  copy(): void;
}

/** An address as a person types it: `https://` is what a browser assumes. */
const shown = (url: string): string => url.replace(/^https:\/\//, '');

const minutes = (ms: number): string => {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/** The whole panel: the offer of a link, or how the phone that took it is doing, and the actions. */
export function renderHandoffPanel(v: HandoffPanelView): TemplateResult {
  const { html, nothing } = v.lit;
  const { t, link } = v;
  const phase = link.phase;
  const following = phase === 'claimed' || phase === 'submitted' || phase === 'reclaimed';
  return html`
    <div part="handoff" data-phase=${phase}>
      ${link.offline ? html`<p class="offline" part="offline">${t.offline}</p>` : nothing}
      ${following ? renderFollow(v) : renderOffer(v)}
      ${link.error ? html`<p class="error" part="error" role="alert">${link.error}</p>` : nothing}
      ${phase === 'submitted' ? nothing : renderActions(v)}
    </div>
  `;
}

/** The link to the phone: its QR code and short code with their countdown, or why there is none. */
function renderOffer(v: HandoffPanelView): TemplateResult {
  const { html, nothing } = v.lit;
  const { t, link } = v;
  const offer = link.phase === 'pending' ? link.offer : null;
  return html`
    ${v.noCamera ? html`<p>${t.noCamera}</p>` : nothing}
    <div class="offer">
      ${
        offer
          ? qrCode(html, offer.url, t.qrLabel)
          : link.phase === 'creating'
            ? html`<div class="qr lapsed" part="handoff-qr" aria-hidden="true">${t.creating}</div>`
            : nothing
      }
      <div>
        ${
          offer
            ? renderCode(v, offer)
            : link.phase === 'expired'
              ? html`<p>${t.expired}</p>`
              : link.phase === 'creating'
                ? html`<p role="status">${t.creating}</p>`
                : nothing
        }
      </div>
    </div>
    ${
      offer
        ? html`<ul class="status" part="handoff-status">
          <li><span class="mark dot" aria-hidden="true"></span>${t.waiting}</li>
        </ul>`
        : nothing
    }
  `;
}

/** Beside the QR code of a pending offer: the short address and code to type, the copy button, the countdown. */
function renderCode(v: HandoffPanelView, offer: HandoffOffer): TemplateResult {
  const { html, nothing } = v.lit;
  const { t, link } = v;
  return html`
    <p>${t.scan}</p>
    <p>${t.typeAt}<br /><span class="url">${shown(offer.shortUrl)}</span></p>
    <p>${t.typeCode}</p>
    <div class="code-row">
      <span class="code" part="handoff-code" aria-hidden="true">${link.code}</span>
      <span class="sr-only">${t.codeLabel}: ${[...offer.code].join(' ')}</span>
      <button type="button" part="button" @click=${v.copy}>${t.copy}</button>
    </div>
    ${v.notice ? html`<p class="muted">${v.notice}</p>` : nothing}
    <p class="muted" role="timer" aria-live="off">${t.expiresIn(minutes(Date.parse(offer.expiresAt) - link.now))}</p>
  `;
}

/** How the phone holding the session is doing: connected, where the person is, the photos taken, the sending. */
function renderFollow(v: HandoffPanelView): TemplateResult {
  const { html, nothing } = v.lit;
  const { t, link } = v;
  const progress = link.progress;
  const submitted = link.phase === 'submitted';
  const stepName = progress ? t.steps[progress.step] : undefined;
  return html`
    <ul class="status" part="handoff-status">
      <li class="done"><span class="mark" aria-hidden="true">✓</span>${t.claimed}</li>
      ${stepName && !submitted ? html`<li><span class="mark dot" aria-hidden="true"></span>${t.at(stepName)}</li>` : nothing}
      ${(progress?.photos ?? []).map(
        (role) => html`<li class="done" data-photo=${role}>
          <span class="mark" aria-hidden="true">✓</span>${t.photos[role]}<span class="sr-only">: ${t.taken}</span>
        </li>`,
      )}
      ${submitted ? html`<li><span class="mark dot" aria-hidden="true"></span>${t.submitted}</li>` : nothing}
    </ul>
  `;
}

/**
 * "Back to this computer", and a new code while none is claimed (the main action once the last
 * one lapsed), laid out as every step's actions are.
 */
function renderActions(v: HandoffPanelView): TemplateResult {
  const { html, nothing } = v.lit;
  const { t, link } = v;
  const phase = link.phase;
  const newCode = phase === 'pending' || phase === 'expired' || phase === 'failed';
  const lapsed = phase === 'expired' || phase === 'failed';
  const button = (label: string, main: boolean, go: () => void) =>
    html`<button
      type="button"
      class=${main ? 'primary' : 'link'}
      part=${main ? 'button button-primary' : 'button button-link'}
      ?disabled=${link.busy}
      @click=${go}
    >
      ${label}
    </button>`;
  const takeBack = button(t.takeBack, false, () => void link.takeBack());
  const code = newCode ? button(t.newCode, lapsed, () => void link.makeOffer()) : nothing;
  return actionBarWith(html, nothing, lapsed ? { primary: code, secondary: [takeBack] } : { secondary: [code, takeBack] });
}
