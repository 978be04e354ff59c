/**
 * The intro, the flow's first screen: how long it takes, what the person needs at hand, and a
 * small picture of each photo they will take. Its button leads to the consent; on a computer
 * without a camera (the `handoff` attribute), "Continue on your phone" leads before it.
 */
import { html, svg, type SVGTemplateResult, type TemplateResult } from 'lit';
import type { CaptureRole } from '../image/pipeline.js';
import type { Messages } from '../messages/index.js';
import { actionBar, linkButton, primaryButton } from './shared.js';

export interface IntroView {
  m: Messages;
  /** The document types offered (`CNH`, `RG`, ...), named in what the person needs. */
  types: readonly string[];
  /** The photos of the flow, in order: no back side when no offered document has one. */
  roles: readonly CaptureRole[];
  onStart: () => void;
  /** No camera here and the hand-off is on: the phone is offered first, as the main action. */
  onHandoff: (() => void) | null;
}

/** Line drawings (stroked in the primary colour by the styles): a card's front, its back, a face on a phone. */
const PICTURES: Record<CaptureRole, SVGTemplateResult> = {
  documentFront: svg`<rect x="4" y="11" width="40" height="26" rx="3"/><circle cx="15" cy="21" r="3"/><path d="M9 32c0-3 3-5 6-5s6 2 6 5M26 19h13M26 24h13M26 29h8"/>`,
  documentBack: svg`<rect x="4" y="11" width="40" height="26" rx="3"/><path d="M4 17h40M9 24h30M9 30h20"/>`,
  selfie: svg`<rect x="13" y="3" width="22" height="42" rx="4"/><circle cx="24" cy="19" r="5"/><path d="M17 34c1-5 4-7 7-7s6 2 7 7"/>`,
};

/** `CNH`, `RG` -> "CNH ou RG": each type's short name (its name without what is in brackets). */
function typeList(m: Messages, types: readonly string[]): string {
  const names = types.map((t) => (m.documentType.names[t] ?? t).split(' (')[0]!);
  const last = names.pop()!;
  return names.length ? `${names.join(', ')} ${m.intro.or} ${last}` : last;
}

export function introStep(v: IntroView): TemplateResult {
  const m = v.m.intro;
  const lead = v.onHandoff;
  return html`
    <div part="body">
      <p>${m.time}</p>
      <h3>${m.needsTitle}</h3>
      <ul class="intro-needs" part="intro-needs">
        <li>${m.needCpf}</li>
        <li>${m.needDocument(typeList(v.m, v.types))}</li>
        <li>${m.needLight}</li>
        <li>${m.needCamera}</li>
      </ul>
      <h3>${m.photosTitle}</h3>
      <ul class="intro-photos" part="intro-photos">
        ${v.roles.map(
          (role) => html`<li><svg viewBox="0 0 48 48" aria-hidden="true">${PICTURES[role]}</svg>${v.m.review.roles[role]}</li>`,
        )}
      </ul>
    </div>
    ${actionBar({
      primary: lead
        ? html`<button type="button" class="primary" part="button button-primary handoff-start" @click=${lead}>${v.m.capture.handoff}</button>`
        : primaryButton(m.start, v.onStart),
      secondary: lead ? [linkButton(m.start, v.onStart)] : [],
    })}
  `;
}
