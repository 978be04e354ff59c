/**
 * The capture view's markup, drawn with the Lit the element hands in (see capture-view.ts): the
 * top bar, the instruction and the live hint, the preview at the frame's aspect ratio with the
 * guide's cutout, and the bottom bar with the shutter and its progress ring.
 */
import type { TemplateResult } from 'lit';
import { guideRect } from '../camera/guide-geometry.js';
import type { CaptureViewProps, LitKit } from './capture-view.js';
import type { CaptureViewTexts, ViewHint } from './texts.js';

/** What the view draws: its properties and its live state. */
export interface CaptureViewState extends CaptureViewProps {
  frame: { width: number; height: number } | null;
  hint: ViewHint | null;
  progress: number;
  announcement: string;
}

/** The view's own handlers, in its locale's texts. */
export interface CaptureViewChrome {
  texts: CaptureViewTexts;
  onFrame: () => void;
}

/** The view's renderer, with its icons drawn once for the element's Lit. */
export function captureViewRenderer(kit: LitKit): (v: CaptureViewState, chrome: CaptureViewChrome) => TemplateResult {
  const { html, svg } = kit;
  const icon = (path: TemplateResult): TemplateResult =>
    html`<svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" focusable="false">${path}</svg>`;
  const icons: BarIcons = {
    back: icon(svg`<path d="M15 5l-7 7 7 7" />`),
    close: icon(svg`<path d="M6 6l12 12M18 6L6 18" />`),
    switch: icon(svg`<path d="M4 9a8 8 0 0 1 14-3l2 2M20 15a8 8 0 0 1-14 3l-2-2M20 4v4h-4M4 20v-4h4" />`),
  };
  return (v, chrome) => html`
    <dialog part="capture-view" aria-labelledby="title" aria-describedby="instruction" @cancel=${(event: Event) => closeOnEscape(event, v)}>
      <div class="bar top">
        <button type="button" class="icon" part="capture-back" aria-label=${chrome.texts.back} @click=${() => v.onBack()}>${icons.back}</button>
        <h2 id="title">${v.heading}</h2>
        <button type="button" class="icon" part="capture-close" aria-label=${chrome.texts.close} @click=${() => v.onClose()}>${icons.close}</button>
      </div>
      ${framePanel(kit, v, chrome)}
      ${bottomBar(kit, v, chrome.texts, icons.switch)}
      <p class="sr-only" role="status" aria-live="polite">${v.announcement}</p>
    </dialog>
  `;
}

/** Escape closes the camera through the flow, which also closes the view. */
function closeOnEscape(event: Event, v: CaptureViewState): void {
  event.preventDefault();
  v.onClose();
}

interface BarIcons {
  back: TemplateResult;
  close: TemplateResult;
  switch: TemplateResult;
}

/** The instruction or the live hint over the preview, and the preview with its cutout. */
function framePanel(kit: LitKit, v: CaptureViewState, chrome: CaptureViewChrome): TemplateResult {
  const { html, cssProperty } = kit;
  const t = chrome.texts;
  const frame = v.frame;
  // An open prompt wins over the live hints: the challenge opens one only after its own model found
  // the face, and the turn or the step closer it asks for is what the frontal face check reads as a
  // face problem (off centre, no face) while it lasts.
  const prompt = v.busy || v.role !== 'selfie' ? null : v.prompt;
  const hint = v.busy || prompt ? null : v.progress > 0 ? t.holdStill : v.hint ? t.hints[v.hint] : null;
  return html`<div class="frame">
    <div class="says">
      <p id="instruction" class="instruction" ?hidden=${!!hint || !!prompt}>${v.role === 'selfie' ? t.instruction.selfie : t.instruction.document}</p>
      <p class="hint" part="capture-hint" ?hidden=${!hint}>${hint}</p>
      <p class="hint prompt" part="liveness-prompt" data-prompt=${prompt ?? ''} ?hidden=${!prompt}>
        ${prompt && prompt !== 'come-closer' ? turnArrow(kit, prompt, v.mirrored) : kit.nothing}${prompt ? t.prompts[prompt] : ''}
      </p>
    </div>
    <div class="view">
      <div class="stage" ${cssProperty('--frame-ratio', frame ? `${frame.width} / ${frame.height}` : '4 / 3')}>
        <video
          part="video"
          class=${v.mirrored ? 'mirrored' : ''}
          aria-hidden="true"
          autoplay
          playsinline
          muted
          @loadedmetadata=${chrome.onFrame}
          @resize=${chrome.onFrame}
        ></video>
        ${cutout(kit, v)}
        ${prompt === 'come-closer' ? closerOutline(kit, v) : kit.nothing}
      </div>
    </div>
  </div>`;
}

/**
 * An arrow towards the side the person turns to, as they see it: on a mirrored preview their left
 * is the screen's left, on an unmirrored one the screen's right.
 */
function turnArrow(kit: LitKit, prompt: 'turn-left' | 'turn-right', mirrored: boolean): TemplateResult {
  const { html, svg } = kit;
  const towardsLeft = (prompt === 'turn-left') === mirrored;
  return html`<svg class="arrow" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
    ${towardsLeft ? svg`<path d="M20 12H5M11 5l-7 7 7 7" />` : svg`<path d="M4 12h15M13 5l7 7-7 7" />`}
  </svg>`;
}

/** The guide's box in the frame's percentages. */
function guideBox(kit: LitKit, v: CaptureViewState, frame: { width: number; height: number }) {
  const { cssProperty } = kit;
  const g = guideRect(v.role, frame.width, frame.height);
  const pct = (value: number, of: number) => `${((value / of) * 100).toFixed(3)}%`;
  return [
    cssProperty('left', pct(g.x, frame.width)),
    cssProperty('top', pct(g.y, frame.height)),
    cssProperty('width', pct(g.width, frame.width)),
    cssProperty('height', pct(g.height, frame.height)),
  ] as const;
}

/** The dark mask's cutout where the card or the face goes, placed in the frame's percentages. */
function cutout(kit: LitKit, v: CaptureViewState): TemplateResult | LitKit['nothing'] {
  const frame = v.frame;
  if (!frame) return kit.nothing;
  const [left, top, width, height] = guideBox(kit, v, frame);
  return kit.html`<div
    class=${`cutout ${v.role === 'selfie' ? 'oval' : 'card'}${v.progress > 0 ? ' ready' : ''}`}
    part="guide"
    aria-hidden="true"
    ${left}
    ${top}
    ${width}
    ${height}
  ></div>`;
}

/** "Come closer": an outline over the oval that grows (a still, larger outline where motion is reduced). */
function closerOutline(kit: LitKit, v: CaptureViewState): TemplateResult | LitKit['nothing'] {
  const frame = v.frame;
  if (!frame) return kit.nothing;
  const [left, top, width, height] = guideBox(kit, v, frame);
  return kit.html`<div class="closer" aria-hidden="true" ${left} ${top} ${width} ${height}></div>`;
}

/** The camera switch (where there is another camera) and the shutter, whose ring fills as an automatic photo comes. */
function bottomBar(kit: LitKit, v: CaptureViewState, t: CaptureViewTexts, switchIcon: TemplateResult): TemplateResult {
  const { html, cssProperty, nothing } = kit;
  const ring = 2 * Math.PI * 36;
  return html`<div class="bar bottom">
    <span class="side">
      ${
        v.canSwitch
          ? html`<button type="button" class="icon" part="capture-switch" aria-label=${t.switchCamera} @click=${() => v.onSwitch()}>${switchIcon}</button>`
          : nothing
      }
    </span>
    <button
      type="button"
      class="shutter"
      part="shutter"
      aria-label=${t.shutter}
      aria-disabled=${v.busy ? 'true' : 'false'}
      autofocus
      @click=${() => {
        if (!v.busy) v.onShutter(false);
      }}
    >
      <svg viewBox="0 0 80 80" aria-hidden="true" focusable="false">
        <circle class="track" cx="40" cy="40" r="36" />
        <circle class="fill" cx="40" cy="40" r="36" ${cssProperty('stroke-dasharray', `${(ring * v.progress).toFixed(1)} ${ring.toFixed(1)}`)} />
      </svg>
    </button>
    <span class="side"></span>
  </div>`;
}
