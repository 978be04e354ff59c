/** Review, upload, processing and outcome. */
import { html, nothing, type TemplateResult } from 'lit';
import type { OnboardingState, OnboardingStatus } from '@onboarding-kit/contract';
import type { CaptureRole } from '../image/pipeline.js';
import type { Messages } from '../messages/index.js';
import { cssProperty } from '../directives/css-property.js';
import { backButton } from './shared.js';

export interface ReviewView {
  m: Messages;
  roles: readonly CaptureRole[];
  previews: Partial<Record<CaptureRole, string>>;
  cancelled: boolean;
  onRetake: (role: CaptureRole) => void;
  onSend: () => void;
  onBack: () => void;
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
          return html`
            <li>
              ${url ? html`<img class="thumbnail" part="thumbnail" src=${url} alt=${v.m.capture.previewAlt(m.roles[role])} />` : nothing}
              <span>${m.roles[role]}</span>
              <button type="button" part="button" @click=${() => v.onRetake(role)}>${m.retake(m.roles[role])}</button>
            </li>
          `;
        })}
      </ul>
    </div>
    <div class="actions" part="actions">
      ${backButton(v.m.flow.back, v.onBack)}
      <button type="button" class="primary" part="button button-primary" ?disabled=${v.roles.some((r) => !v.previews[r])} @click=${v.onSend}>
        ${m.send}
      </button>
    </div>
  `;
}

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
    <div class="actions" part="actions">
      <button type="button" part="button" @click=${v.onCancel}>${m.cancel}</button>
    </div>
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
      ${v.externalId ? html`<p>${v.m.outcome.supportCode}: <code class="support-code">${v.externalId}</code></p>` : nothing}
    </div>
    ${v.final
      ? nothing
      : html`<div class="actions" part="actions">
          <button type="button" part="button" @click=${v.onBackToReview}>${m.backToReview}</button>
          ${v.fixCpf ? html`<button type="button" part="button" @click=${v.onFixCpf}>${m.fixCpf}</button>` : nothing}
          ${role ? html`<button type="button" part="button" @click=${() => v.onRetake(role)}>${m.retakePhoto}</button>` : nothing}
          ${v.canRetry ? html`<button type="button" class="primary" part="button button-primary" @click=${v.onRetry}>${m.retry}</button>` : nothing}
        </div>`}
  `;
}

export interface ProcessingView {
  m: Messages;
  status: OnboardingStatus;
  error: 'gave-up' | 'lost' | null;
  reference: string | null;
  canCheckAgain: boolean;
  onCheckAgain: () => void;
  /** Absent: no "Start again" (a session yields one onboarding, so starting over leads nowhere). */
  onRestart?: (() => void) | undefined;
}

export function processingStep(v: ProcessingView): TemplateResult {
  const m = v.m.processing;
  if (v.error) {
    return html`
      <div part="body">
        <p id="processing-error" class="error" part="error" role="alert">${v.error === 'gave-up' ? m.gaveUp : m.lost}</p>
        ${v.reference ? html`<p>${m.reference}: <code class="support-code">${v.reference}</code></p>` : nothing}
      </div>
      <div class="actions" part="actions">
        ${v.canCheckAgain
          ? html`<button type="button" class="primary" part="button button-primary" @click=${v.onCheckAgain}>${m.checkAgain}</button>`
          : nothing}
        ${v.onRestart ? html`<button type="button" part="button" @click=${v.onRestart}>${v.m.outcome.restart}</button>` : nothing}
      </div>
    `;
  }
  return html`
    <div part="body">
      <div class="spinner" aria-hidden="true"></div>
      <p>${m.waiting}</p>
      <p class="muted">${m.status(m.statusNames[v.status])}</p>
    </div>
  `;
}

export interface OutcomeView {
  m: Messages;
  outcome: OnboardingState & { status: Exclude<OnboardingStatus, 'IN_PROCESS'> };
  copyNotice: 'copied' | 'copyFailed' | null;
  onCopy: (code: string) => void;
  /** Absent: no "Start again" (a session yields one onboarding, so starting over leads nowhere). */
  onRestart?: (() => void) | undefined;
}

export function outcomeStep(v: OutcomeView): TemplateResult {
  const m = v.m.outcome;
  const { outcome } = v;
  let body: TemplateResult;
  if (outcome.status === 'APPROVED') {
    body = html`<p>${m.approvedBody}</p><slot name="outcome-approved"></slot>`;
  } else if (outcome.status === 'REFUSED') {
    body = html`
      <p>${m.refusedBody}</p>
      ${outcome.message ? html`<p data-reason>${m.refusedReason(outcome.message)}</p>` : nothing}
      <slot name="outcome-refused"></slot>
    `;
  } else {
    // Support needs the upstream's externalId; without one the token still identifies the case.
    const code = outcome.externalId ?? outcome.tokenOnboarding;
    body = html`
      <p>${m.errorBody}</p>
      <p>${m.supportCode}: <code class="support-code" data-support-code>${code}</code></p>
      <button type="button" part="button" @click=${() => v.onCopy(code)}>${m.copy}</button>
      ${v.copyNotice ? html`<p role="status">${m[v.copyNotice]}</p>` : nothing}
      <slot name="outcome-error"></slot>
    `;
  }
  return html`
    <div part="body outcome" class=${`outcome ${outcome.status.toLowerCase()}`} data-status=${outcome.status}>${body}</div>
    ${v.onRestart
      ? html`<div class="actions" part="actions">
          <button type="button" part="button" @click=${v.onRestart}>${m.restart}</button>
        </div>`
      : nothing}
  `;
}
