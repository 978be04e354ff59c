/** Upload, processing and outcome. */
import { html, nothing, type TemplateResult } from 'lit';
import type { OnboardingState, OnboardingStatus } from '@onboarding-kit/contract';
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
  externalId: string | undefined;
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
      ${v.externalId ? html`<p>${v.m.outcome.supportCode}: ${supportCode(v.externalId)}</p>` : nothing}
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

/**
 * A support code in short groups with a break opportunity between them: it wraps between
 * groups, never mid-group, and its text (what selecting and copying by hand gives) is the code
 * exactly, since the gaps are margins rather than characters.
 */
function supportCode(code: string): TemplateResult {
  // The code's own hyphens part it; a long run between them goes in fours, set apart by a gap.
  const groups = code.split(/(?<=-)/).flatMap((part) => (part.length > 9 ? (part.match(/.{1,4}/g) ?? [part]) : [part]));
  return html`<code class="support-code" data-support-code>${groups.map(
    (g, i) => html`${i ? html`<wbr />` : nothing}<span class=${g.endsWith('-') ? '' : 'gap'}>${g}</span>`,
  )}</code>`;
}

export function processingStep(v: ProcessingView): TemplateResult {
  const m = v.m.processing;
  const t = v.t;
  if (v.error) {
    return html`
      <div part="body">
        <p id="processing-error" class="error" part="error" role="alert">${v.error === 'gave-up' ? m.gaveUp : m.lost}</p>
        ${v.reference ? html`<p>${m.reference}: ${supportCode(v.reference)}</p>` : nothing}
      </div>
      ${actionBar({
        primary: v.canCheckAgain ? primaryButton(m.checkAgain, v.onCheckAgain) : nothing,
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
}

/** One stroke path drawn inside a circle: a tick, an "i", a "!". */
const ICON_PATHS = { APPROVED: 'm7.5 12.5 3 3 6-6.5', REFUSED: 'M12 11v5.5M12 7.5v.5', ERROR: 'M12 7v5.5M12 16v.5' } as const;

export function outcomeStep(v: OutcomeView): TemplateResult {
  const m = v.m.outcome;
  const t = v.t;
  const say = (text: string | undefined) => (text ? html`<p>${text}</p>` : nothing);
  const { outcome } = v;
  let body: TemplateResult;
  if (outcome.status === 'APPROVED') {
    body = html`${say(t?.approvedBody)}<slot name="continue"></slot><slot name="outcome-approved"></slot>`;
  } else if (outcome.status === 'REFUSED') {
    body = html`
      ${say(t?.refusedBody)}
      ${outcome.message && t ? html`<p data-reason>${t.refusedReason(outcome.message)}</p>` : nothing}
      ${say(v.onRetryPhotos ? t?.refusedNext : t?.refusedContact)}
      <slot name="refused-help"></slot>
      <slot name="outcome-refused"></slot>
    `;
  } else {
    // Support needs the upstream's externalId; without one the token still identifies the case.
    const code = outcome.externalId ?? outcome.tokenOnboarding;
    body = html`
      ${say(t?.errorBody)}
      <p>${m.supportCode}: ${supportCode(code)}</p>
      <div><button type="button" part="button" @click=${() => v.onCopy(code)}>${m.copy}</button></div>
      ${v.copyNotice && t ? html`<p role="status">${t[v.copyNotice]}</p>` : nothing}
      <slot name="outcome-error"></slot>
    `;
  }
  const retry = outcome.status === 'REFUSED' && t ? v.onRetryPhotos : undefined;
  return html`
    <div part="body outcome" class=${`outcome is-${outcome.status.toLowerCase()}`} data-status=${outcome.status}>
      <svg class="outcome-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><circle cx="12" cy="12" r="10" /><path d=${ICON_PATHS[outcome.status]} /></svg>
      ${body}
    </div>
    ${
      v.onRestart || retry
        ? actionBar({
            primary: retry ? primaryButton(t?.retryPhotos ?? '', retry) : nothing,
            secondary: [v.onRestart ? linkButton(m.restart, v.onRestart) : nothing],
          })
        : nothing
    }
  `;
}
