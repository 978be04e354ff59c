/**
 * The phone's side of the hand-off (docs/page-api.md#hand-off): the device a session was handed
 * to tells the computer where the person is and follows the session's events to learn when the
 * computer takes it back. No DOM: the flow's hand-off controller drives it. Part of the lazily
 * loaded hand-off file.
 */
import { HANDOFF_PROGRESS_STEPS, type SessionProgressReport } from '@onboarding-kit/contract';
import { postSession } from '../api/companion-client.js';
import { CompanionError } from '../api/errors.js';
import { SETTLE_MS, followSessionEvents } from './session-events.js';

/** A phone's link to the computer that handed it the session. */
export interface DeviceLink {
  /** Tells the computer where the person is and which photos are taken, when that changed (best effort). */
  report(progress: SessionProgressReport): void;
  stop(): void;
}

/**
 * The phone a session was handed to (`holder`, not `origin`): reports its progress to
 * `POST /v1/session/progress` (never an image; a failure never stops the person), and follows the
 * session's events. `lost` is called once the page that opened the session takes it back
 * (`handoff.reclaimed` not followed by a new claim, or 409 `session_handed_off` on a report or a
 * reconnection).
 */
export function linkDevice(endpoint: string, secret: () => string, lost: () => void): DeviceLink {
  const run = new AbortController();
  const signal = run.signal;
  let reported = '';
  const lose = () => {
    if (signal.aborted) return;
    run.abort();
    lost();
  };
  const reports = progressReports(endpoint, secret, signal, lose);
  followHolder(endpoint, secret, signal, lose, reports.resend);
  return {
    report(progress) {
      const key = `${progress.step} ${progress.photos.join()}`;
      if (signal.aborted || key === reported || !(HANDOFF_PROGRESS_STEPS as readonly string[]).includes(progress.step)) return;
      reported = key;
      reports.submit(progress);
    },
    stop: () => run.abort(),
  };
}

/**
 * Follows the session's events for as long as `signal` runs: `lose` once the session ends up
 * taken back, `resend` whenever the stream reaches the companion again.
 */
function followHolder(endpoint: string, secret: () => string, signal: AbortSignal, lose: () => void, resend: () => void): void {
  let held = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const settle = () => {
    timer = undefined;
    if (!held) lose();
  };
  signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  void followSessionEvents(
    endpoint,
    secret,
    {
      event(event) {
        if (event.type === 'handoff.claimed') held = true;
        else if (event.type === 'handoff.reclaimed') held = false;
        else return;
        // A replay holds earlier rounds (a claim, a take-back, a new claim: this one): judge where it ends.
        timer ??= setTimeout(settle, SETTLE_MS);
      },
      // Back on the network (the stream reconnected): what could not be told is told now.
      reachable(reachable) {
        if (reachable) resend();
      },
      ended(code) {
        if (code === 'session_handed_off') lose();
      },
    },
    signal,
    true,
  );
}

/**
 * The progress reports to `POST /v1/session/progress`, for as long as `signal` runs: `submit`
 * sends the latest, `resend` sends again the one that did not get through (also when the browser
 * comes back online). `lose` is called on a 409 `session_handed_off`.
 */
function progressReports(endpoint: string, secret: () => string, signal: AbortSignal, lose: () => void) {
  // One report in flight at a time, the latest waiting behind it: two sent at once could land out of order.
  let sending = false;
  let waiting: SessionProgressReport | null = null;
  // The latest report that did not get through (offline): sent again when the network is back,
  // unless a newer one went meanwhile.
  let unsent: SessionProgressReport | null = null;
  const send = (progress: SessionProgressReport): void => {
    sending = true;
    postSession(endpoint, 'progress', secret(), progress, signal)
      .then(() => {
        if (unsent === progress) unsent = null;
      })
      .catch((error: unknown) => {
        if (error instanceof CompanionError && error.code === 'session_handed_off') lose();
        else if (!waiting) unsent = progress;
      })
      .finally(() => {
        sending = false;
        const next = waiting;
        waiting = null;
        if (next && !signal.aborted) send(next);
      });
  };
  const resend = (): void => {
    const progress = unsent;
    if (!progress || signal.aborted) return;
    unsent = null;
    if (sending) waiting ??= progress;
    else send(progress);
  };
  const onOnline = () => resend();
  globalThis.addEventListener?.('online', onOnline);
  signal.addEventListener('abort', () => globalThis.removeEventListener?.('online', onOnline), { once: true });
  return {
    submit(progress: SessionProgressReport): void {
      unsent = null;
      if (sending) waiting = progress;
      else send(progress);
    },
    resend,
  };
}
