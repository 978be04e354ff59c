/** What shows in place of the consent while a session is read, or when it cannot be used. */
import { html, nothing, type TemplateResult } from 'lit';
import type { SessionProblem } from '../controllers/session-controller.js';
import type { Messages } from '../messages/index.js';
import type { LoadFailure } from '../lazy/load-failure.js';
import { actionBar, primaryButton } from './shared.js';

export interface SessionStepView {
  m: Messages;
  /** null while the session is being read. */
  problem: SessionProblem | null;
  onRetry: () => void;
}

export function sessionStep(v: SessionStepView): TemplateResult {
  const m = v.m.session;
  if (!v.problem) {
    return html`
      <div part="body">
        <div class="spinner" aria-hidden="true"></div>
        <p role="status">${m.loading}</p>
      </div>
    `;
  }
  // Only a read that failed on the way is worth repeating: the other problems are the session's own.
  // A session taken back by the device that opened it is no fault: said plainly, not in red.
  return html`
    <div part="body">
      <p id="session-error" class=${v.problem === 'handedOff' ? '' : 'error'} part="error" role="alert" data-session-problem=${v.problem}>${m[v.problem]}</p>
    </div>
    ${v.problem === 'unavailable' ? actionBar({ primary: primaryButton(m.retry, v.onRetry) }) : nothing}
  `;
}

/** The heading while a session is read, or of why it cannot be used. */
export function sessionHeading(m: Messages, problem: SessionProblem | null): string {
  const s = m.session;
  return !problem
    ? s.loadingHeading
    : problem === 'unavailable'
      ? s.unavailableHeading
      : problem === 'handedOff'
        ? s.handedOffHeading
        : problem === 'cancelled'
          ? s.cancelledHeading
          : s.failedHeading;
}

export interface PendingStepView {
  m: Messages;
  /**
   * The steps' file could not be loaded: the connection dropped (`offline`), or the page does not
   * serve it (`missing`: the person is told the site is at fault, not their internet). A Retry either way.
   */
  failed: LoadFailure | null;
  onRetry: () => void;
}

/** What shows on a step whose lazily loaded part (the photo steps) is still on its way, or could not be loaded. */
export function pendingStep(v: PendingStepView): TemplateResult {
  const m = v.m;
  if (!v.failed) {
    return html`
      <div part="body" data-part-pending>
        <div class="spinner" aria-hidden="true"></div>
        <p role="status">${m.flow.partLoading}</p>
      </div>
    `;
  }
  return html`
    <div part="body">
      <p class="error" part="error" role="alert" data-part-failed=${v.failed}>${v.failed === 'missing' ? m.flow.partMissing : m.flow.partFailed}</p>
    </div>
    ${actionBar({ primary: primaryButton(m.session.retry, v.onRetry) })}
  `;
}
