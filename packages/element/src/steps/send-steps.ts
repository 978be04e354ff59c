/** Upload, processing and outcome. */
import { html, nothing, type TemplateResult } from 'lit';
import { supportCodeOf, type OnboardingState, type OnboardingStatus } from '@onboarding-kit/contract';
import type { CaptureRole } from '../image/pipeline.js';
import type { Messages } from '../messages/index.js';
import type { AfterSendMessages } from '../messages/after-send.js';
import { cssProperty } from '../directives/css-property.js';
import { actionBar, linkButton, primaryButton } from './shared.js';

export interface UploadView {
  m: Messages;
  percent: number;
  onCancel: () => void;
}

export function uploadStep(v: UploadView): TemplateResult {
  const m = v.m.upload;
  return html`
    <div part="body">
      <div
        class="progress"
        part="progress"
        role="progressbar"
        aria-label=${m.progressLabel}
        aria-valuemin="0"
        aria-valuemax="100"
        aria-valuenow=${v.percent}
        aria-valuetext=${m.progress(v.percent)}
      >
        <div class="progress-bar" ${cssProperty('width', `${v.percent}%`)}></div>
      </div>
      <p aria-hidden="true">${m.progress(v.percent)}</p>
    </div>
    ${actionBar({ secondary: [linkButton(m.cancel, v.onCancel)] })}
  `;
}

export interface UploadErrorView {
  m: Messages;
  message: string;
  /** What the support code stands for: the session's id, else the upstream's reference of the refusal. */
  supportId: string | undefined;
  /** Offer to correct the CPF/name (the companion refused them). */
  fixCpf: boolean;
  /** The photo the companion refused, if it said which. */
  retakeRole: CaptureRole | null;
  /** Nothing this page can send will be accepted any more (the session is spent or gone): no actions. */
  final: boolean;
  /** Sending the same content again could succeed. */
  canRetry: boolean;
  onBackToReview: () => void;
  onFixCpf: () => void;
  onRetake: (role: CaptureRole) => void;
  onRetry: () => void;
}

export function uploadErrorStep(v: UploadErrorView): TemplateResult {
  const m = v.m.upload;
  const role = v.retakeRole;
  return html`
    <div part="body">
      <p id="upload-error" class="error" part="error" role="alert">${v.message}</p>
      ${v.supportId ? html`<p>${v.m.outcome.supportCode}: ${supportCode(v.supportId)}</p>` : nothing}
    </div>
    ${
      v.final
        ? nothing
        : errorActions([
            v.canRetry ? [m.retry, v.onRetry] : null,
            v.fixCpf ? [m.fixCpf, v.onFixCpf] : null,
            role ? [m.retakePhoto, () => v.onRetake(role)] : null,
            [m.backToReview, v.onBackToReview],
          ])
    }
  `;
}

/** The upload error's ways on, likeliest to succeed first: the first is the main action. */
function errorActions(offered: ([string, () => void] | null)[]): TemplateResult {
  const [first, ...rest] = offered.filter((a) => a !== null);
  return actionBar({ primary: primaryButton(...first!), secondary: rest.map(([label, go]) => linkButton(label, go)) });
}

export type WaitPhase = 'usual' | 'slow' | 'review';

export interface ProcessingView {
  m: Messages;
  /** The waiting and outcome texts, once loaded (until then only the headings and the status show). */
  t: AfterSendMessages | null;
  status: OnboardingStatus;
  error: 'gave-up' | 'lost' | null;
  /** What the support code stands for: the session's id, else the onboarding's token. */
  reference: string | null;
  canCheckAgain: boolean;
  /** How long the wait has gone on, which changes what the person is told. */
  phase: WaitPhase;
  /** Neither the status stream nor polling reaches the companion. */
  offline: boolean;
  /** Someone else hears of the outcome (a session's backend), so the page may be closed. */
  canClose: boolean;
  onCheckAgain: () => void;
  /** Absent: no "Start again" (a session yields one onboarding, so starting over leads nowhere). */
  onRestart?: (() => void) | undefined;
}

/** The support code of an id (`K7QM-4XPD`), kept on one line: read aloud over the phone, copied as shown. */
function supportCode(id: string): TemplateResult {
  return html`<code class="support-code" part="support-code" data-support-code>${supportCodeOf(id)}</code>`;
}

export function processingStep(v: ProcessingView): TemplateResult {
  const m = v.m.processing;
  const t = v.t;
  if (v.error) {
    return html`
      <div part="body">
        <p id="processing-error" class="error" part="error" role="alert">${v.error === 'gave-up' ? m.gaveUp : m.lost}</p>
        ${v.reference ? html`<p>${v.m.outcome.supportCode}: ${supportCode(v.reference)}</p>` : nothing}
      </div>
      ${actionBar({
        primary: v.canCheckAgain ? primaryButton(v.m.session.retry, v.onCheckAgain) : nothing,
        secondary: [v.onRestart ? linkButton(v.m.outcome.restart, v.onRestart) : nothing],
      })}
    `;
  }
  return html`
    <div part="body">
      <div role="status">${v.offline ? html`<p class="offline" part="offline">${m.offline}</p>` : nothing}</div>
      <div class="spinner" aria-hidden="true"></div>
      ${t ? html`<p data-wait=${v.phase} aria-live="polite">${v.phase === 'usual' ? t.waiting : v.phase === 'slow' ? t.slow : t.review}</p>` : nothing}
      ${t && v.phase === 'review' ? html`<p>${v.canClose ? t.reviewClose : t.reviewStay}</p>` : nothing}
      <p class="muted">${m.status(m.statusNames[v.status])}</p>
    </div>
  `;
}

export interface OutcomeView {
  m: Messages;
  t: AfterSendMessages | null;
  outcome: OnboardingState & { status: Exclude<OnboardingStatus, 'IN_PROCESS'> };
  copyNotice: 'copied' | 'copyFailed' | null;
  onCopy: (code: string) => void;
  /** Absent: no "Start again" (a session yields one onboarding, so starting over leads nowhere). */
  onRestart?: (() => void) | undefined;
  /** A new attempt with other photos; absent under a session (the person is sent to the service instead). */
  onRetryPhotos?: (() => void) | undefined;
  /** What the support code stands for: the session's id, else the onboarding's token. */
  supportId: string;
  /** Back to the integrator: the session's `returnUrl` with the session and the status, or null. */
  returnHref: string | null;
  /** The integrator's help page, or null. */
  helpUrl: string | null;
  /** The page put its own way on in the `continue` slot. */
  continueSlotted: boolean;
  /** "Continuar" fires `onboarding-continue`; absent: not offered. */
  onContinue?: ((tokenOnboarding: string) => void) | undefined;
}

/** A link styled as the step's main action, or as a text link beside it; the help page opens in a new tab. */
const link = (href: string, text: string, main: boolean, part: string, newTab = false): TemplateResult =>
  html`<a
    class=${main ? 'primary link-button' : 'link text-link'}
    part=${main ? `${part} button-primary` : part}
    href=${href}
    target=${newTab ? '_blank' : nothing}
    rel=${newTab ? 'noopener' : nothing}
    >${text}</a
  >`;

/**
 * Every outcome has a way on. APPROVED: "Continuar" (back to the session's `returnUrl`, else the
 * page's `continue` slot, else `onboarding-continue`), or that the page may be closed. REFUSED:
 * a new try where one can be made, the integrator's help page, or whom to contact. ERROR: the
 * support code, and a new try where the companion takes one (never under a spent session), the
 * help page and the way back, or whom to contact.
 */
export function outcomeStep(v: OutcomeView): TemplateResult {
  const m = v.m.outcome;
  const t = v.t;
  const say = (text: string | undefined) => (text ? html`<p>${text}</p>` : nothing);
  const { outcome } = v;
  const approved = outcome.status === 'APPROVED';
  const retry = !approved && t ? v.onRetryPhotos : undefined;
  const help = !approved && t ? v.helpUrl : null;
  const back = !approved && t ? v.returnHref : null;
  let body: TemplateResult;
  let main: TemplateResult | typeof nothing = nothing;
  if (approved) {
    const onContinue = v.onContinue;
    const way = v.returnHref ? 'return' : v.continueSlotted ? 'slot' : onContinue ? 'event' : null;
    body = html`${say(t?.approvedBody)}${t && !way ? html`<p data-approved-close>${t.approvedClose}</p>` : nothing}<slot
        name="outcome-approved"
      ></slot>`;
    if (way === 'slot') main = html`<slot name="continue"></slot>`;
    else if (t && way === 'return') main = link(v.returnHref!, t.continue, true, 'continue');
    else if (t && onContinue)
      main = html`<button type="button" class="primary" part="button button-primary continue" @click=${() => onContinue(outcome.tokenOnboarding)}>
        ${t.continue}
      </button>`;
  } else if (outcome.status === 'REFUSED') {
    body = html`
      ${say(t?.refusedBody)}
      ${outcome.message && t ? html`<p data-reason>${t.refusedReason(outcome.message)}</p>` : nothing}
      ${say(retry ? t?.refusedNext : help ? t?.refusedHelp : t?.refusedContact)}
      <slot name="refused-help"></slot>
      <slot name="outcome-refused"></slot>
    `;
  } else {
    const code = supportCodeOf(v.supportId);
    body = html`
      ${say(t?.errorBody)}
      <p>${m.supportCode}: ${supportCode(v.supportId)}</p>
      <div><button type="button" part="button" @click=${() => v.onCopy(code)}>${m.copy}</button></div>
      ${v.copyNotice && t ? html`<p role="status">${t[v.copyNotice]}</p>` : nothing}
      ${say(retry ? t?.errorRetry : help ? t?.errorHelp : t?.errorContact)}
      <slot name="outcome-error"></slot>
    `;
  }
  if (retry) main = primaryButton((outcome.status === 'ERROR' ? v.m.session.retry : t?.retryPhotos) ?? '', retry);
  else if (help) main = link(help, t!.helpLink, true, 'help-link', true);
  return html`
    <div part="body outcome" class=${`outcome is-${outcome.status.toLowerCase()}`} data-status=${outcome.status}>${body}</div>
    ${actionBar({
      primary: main,
      secondary: [
        retry && help ? link(help, t!.helpLink, false, 'help-link', true) : nothing,
        back ? link(back, t!.backToSite, false, 'back-to-site') : nothing,
        v.onRestart ? linkButton(m.restart, v.onRestart) : nothing,
      ],
    })}
  `;
}
