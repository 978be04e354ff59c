/**
 * Sending and following an onboarding, as a Lit reactive controller: the upload with its
 * progress, then the status watch (stream, then polling) until a final status. Each has one run
 * at a time, aborted by cancel, reset and the host leaving the document; a result that arrives
 * for a run that was aborted or replaced is ignored. The access key lives here, in memory only:
 * never in a URL, an event, the DOM or a render.
 *
 * With a session, each creation carries an `Idempotency-Key`: the same key for as long as the
 * person sends the same content, so that sending again after a lost answer gets the onboarding
 * already created instead of a refusal (a session yields one onboarding); a new key once the
 * content changed.
 */
import {
  validateCreateOnboarding,
  type CaptureIntegrityClaim,
  type CreateOnboardingRequest,
  type OnboardingState,
  type ValidCreateOnboarding,
} from '@onboarding-kit/contract';
import type { ReactiveController, ReactiveElement } from 'lit';
import { CompanionError, createOnboarding, errorFromApi, watchStatus, type FinalState, type PollOptions } from '../api/index.js';
import { OnboardingCancelEvent, OnboardingCompleteEvent, OnboardingErrorEvent, OnboardingSubmittedEvent } from '../events.js';
import type { FlowContextSource } from '../onboarding-flow/flow-context.js';
import { newIdempotencyKey, sameRequest } from './idempotency-key.js';
import { forget, readKept, storeKept, type KeptOnboarding } from './kept-onboarding.js';
import { LatestRun } from './latest-run.js';
import { uploadErrorMessage } from './upload-errors.js';

export type ProcessingProblem = 'gave-up' | 'lost';

export interface SubmissionOptions {
  /**
   * The flow's settings as resolved: the endpoint, the messages, and the `sessionStorage` key
   * under which the onboarding being waited for survives a reload (null: keep nothing).
   */
  context: FlowContextSource;
  pollOptions(): Partial<PollOptions>;
  /** Decoded size cap per image, checked before anything is sent. */
  maxImageBytes(): number;
  /** What the person entered and photographed, read when the upload starts. */
  request(): CreateOnboardingRequest;
  /** The capture integrity of that body (docs/page-api.md#capture-integrity): hashed after the upload step shows. */
  integrity?(body: CreateOnboardingRequest): Promise<CaptureIntegrityClaim>;
  announce(text: string): void;
  goTo(step: 'upload' | 'review' | 'processing' | 'outcome'): void;
  /** The companion accepted the upload: the photos have no further use on this page. */
  sent(): void;
  /** The client secret of the session the creation is bound to, or null without one. */
  clientSecret?(): string | null;
  /** The tax id the session fixes, as the page holds it (masked), or null: the creation may then name none. */
  sessionTaxId?(): ValidCreateOnboarding['taxId'] | null;
}

/** After this long, the person is told the check takes longer than usual. */
const SLOW_AFTER_MS = 30_000;
/** After this long still in process, a manual review is the likely reason. */
const REVIEW_AFTER_MS = 120_000;

export type WaitPhase = 'usual' | 'slow' | 'review';

/** Leaving mid-upload loses it: the browser asks the person first. */
function warnBeforeLeaving(event: BeforeUnloadEvent): void {
  event.preventDefault();
  // Older engines ask only when returnValue is set.
  event.returnValue = '';
}

const asCompanionError = (error: unknown): CompanionError =>
  error instanceof CompanionError ? error : new CompanionError({ code: 'network', message: String(error), status: 0 });

export class SubmissionController implements ReactiveController {
  readonly #host: ReactiveElement;
  readonly #options: SubmissionOptions;
  readonly #upload = new LatestRun();
  readonly #watch = new LatestRun();
  /** The onboarding's read key: memory only. */
  #accessKey: string | null = null;
  #percent: number | null = null;
  #uploadError: CompanionError | null = null;
  #cancelled = false;
  #token: string | null = null;
  #liveStatus: OnboardingState | null = null;
  #processingProblem: ProcessingProblem | null = null;
  #outcome: FinalState | null = null;
  /** The key of the last creation attempt and what it sent, for a retry of the same content. */
  #attempt: { key: string; body: CreateOnboardingRequest; integrity?: Promise<CaptureIntegrityClaim | undefined> } | null = null;
  /** What the host's leaving the document interrupted, to resume or report when it comes back. */
  #interrupted: { upload: boolean; watch: boolean } = { upload: false, watch: false };
  /** When the creation was answered: the wait is measured from there, across a reload too. */
  #since: number | null = null;
  #phaseTimer: ReturnType<typeof setTimeout> | undefined;
  /** Whether the last status read reached the companion. */
  #reachable = true;
  /** The storage key the onboarding was kept under, to forget it there. */
  #keptUnder: string | null = null;
  readonly #onConnectivity = (event: Event): void => {
    // Back online: look again now rather than at the next, backed-off poll.
    if (event.type === 'online' && this.#watch.running && !this.#reachable) void this.watch();
    this.#host.requestUpdate();
  };

  constructor(host: ReactiveElement, options: SubmissionOptions) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
  }

  /** Upload progress in percent; null when no upload is under way. */
  get percent(): number | null {
    return this.#percent;
  }
  get uploadError(): CompanionError | null {
    return this.#uploadError;
  }
  /** Whether the person cancelled the last upload. */
  get cancelled(): boolean {
    return this.#cancelled;
  }
  get tokenOnboarding(): string | null {
    return this.#token;
  }
  get liveStatus(): OnboardingState | null {
    return this.#liveStatus;
  }
  get processingProblem(): ProcessingProblem | null {
    return this.#processingProblem;
  }
  get outcome(): FinalState | null {
    return this.#outcome;
  }
  /** Whether the status can still be read (the key is dropped once the status is final). */
  get canCheckAgain(): boolean {
    return this.#accessKey !== null;
  }
  /** How long the wait for a final status has gone on. */
  get waitPhase(): WaitPhase {
    const waited = this.#since === null ? 0 : Date.now() - this.#since;
    return waited >= REVIEW_AFTER_MS ? 'review' : waited >= SLOW_AFTER_MS ? 'slow' : 'usual';
  }
  /** Neither the status stream nor polling reaches the companion (or the browser says it is offline). */
  get offline(): boolean {
    return !this.#reachable || navigator.onLine === false;
  }

  /**
   * After a reload: waits again for the onboarding this page had sent, if one is kept for it.
   * True when there was one (the host then shows the processing step).
   */
  resume(): boolean {
    const { resumeKey: key, endpoint } = this.#options.context.current;
    const kept = key ? readKept(key, endpoint) : null;
    if (!kept) return false;
    this.#keptUnder = key;
    this.#token = kept.tokenOnboarding;
    this.#accessKey = kept.accessKey;
    this.#since = kept.savedAt;
    this.#options.goTo('processing');
    void this.watch();
    return true;
  }

  hostConnected(): void {
    addEventListener('online', this.#onConnectivity);
    addEventListener('offline', this.#onConnectivity);
    // Moved in the DOM mid-flow: what hostDisconnected cancelled resumes or says so.
    const { upload, watch } = this.#interrupted;
    this.#interrupted = { upload: false, watch: false };
    if (watch && this.#accessKey && !this.#processingProblem) void this.watch();
    if (upload && !this.#uploadError && this.#percent !== null) {
      this.#failUpload(new CompanionError({ code: 'aborted', message: 'The upload was interrupted.', status: 0 }));
    }
  }

  hostDisconnected(): void {
    removeEventListener('online', this.#onConnectivity);
    removeEventListener('offline', this.#onConnectivity);
    removeEventListener('beforeunload', warnBeforeLeaving);
    clearTimeout(this.#phaseTimer);
    this.#interrupted = { upload: this.#upload.running, watch: this.#watch.running };
    this.#upload.cancel();
    this.#watch.cancel();
  }

  /** Shows the upload step and sends. */
  send(): void {
    this.#cancelled = false;
    this.#options.goTo('upload');
    void this.upload();
  }

  /** Sends (or sends again) what the person entered; on success follows the status. */
  async upload(): Promise<void> {
    this.#uploadError = null;
    const body = this.#options.request();
    const check = validateCreateOnboarding(body, this.#options.maxImageBytes(), this.#options.sessionTaxId?.() ?? undefined);
    if (!check.ok) {
      this.#failUpload(errorFromApi(check.status, check.error));
      return;
    }
    const { messages: m, endpoint } = this.#options.context.current;
    this.#setPercent(0);
    this.#options.announce(m.upload.progress(0));
    const signal = this.#upload.begin();
    const clientSecret = this.#options.clientSecret?.() ?? null;
    // With or without a session: a retry after a lost answer must never create a second onboarding.
    const attempt = this.#attemptFor(body);
    const idempotencyKey = attempt.key;
    addEventListener('beforeunload', warnBeforeLeaving);
    try {
      // Never a gate: a claim that cannot be built leaves the creation without one. A retry under
      // the same key sends the same claim, so that the companion sees the same creation again.
      attempt.integrity ??= this.#options.integrity?.(body).catch(() => undefined);
      const integrity = await attempt.integrity;
      if (!this.#upload.isCurrent(signal)) return;
      const created = await createOnboarding(endpoint, integrity ? { ...body, integrity } : body, {
        signal,
        ...(clientSecret && { clientSecret }),
        ...(idempotencyKey && { idempotencyKey }),
        onProgress: ({ loaded, total }) => {
          if (total > 0 && this.#upload.isCurrent(signal)) this.#setPercent(Math.min(100, Math.floor((loaded / total) * 100)));
        },
      });
      if (!this.#upload.isCurrent(signal)) return;
      this.#accessKey = created.accessKey;
      this.#token = created.tokenOnboarding;
      this.#since = Date.now();
      this.#keep();
      // Created: nothing will be sent again, and the photos it held go with the others.
      this.#attempt = null;
      this.#setPercent(100);
      this.#options.sent();
      this.#host.dispatchEvent(new OnboardingSubmittedEvent({ tokenOnboarding: created.tokenOnboarding }));
      this.#options.goTo('processing');
      void this.watch();
    } catch (error) {
      if (!this.#upload.isCurrent(signal)) return;
      const e = asCompanionError(error);
      // With a session, a 401 means its secret no longer opens it: say so as the session read does.
      this.#failUpload(
        clientSecret && e.status === 401 ? new CompanionError({ code: 'session_invalid', message: e.message, status: 401 }) : e,
      );
    } finally {
      if (this.#upload.end(signal)) removeEventListener('beforeunload', warnBeforeLeaving);
    }
  }

  /** The person cancelled the upload: back to the review with the photos kept. */
  cancelUpload(): void {
    this.#upload.cancel();
    removeEventListener('beforeunload', warnBeforeLeaving);
    this.#percent = null;
    this.#cancelled = true;
    this.#host.requestUpdate();
    this.#host.dispatchEvent(new OnboardingCancelEvent({ step: 'upload' }));
    this.#options.goTo('review');
  }

  /** Follows the status until it is final (again, after a failed watch: "Try again"). */
  async watch(): Promise<void> {
    const token = this.#token;
    const key = this.#accessKey;
    if (!token || !key) return;
    this.#processingProblem = null;
    this.#schedulePhase();
    this.#host.requestUpdate();
    const signal = this.#watch.begin();
    const { messages: m, endpoint } = this.#options.context.current;
    try {
      const final = await watchStatus(endpoint, token, key, {
        signal,
        poll: this.#options.pollOptions(),
        onReachable: (reachable) => {
          if (!this.#watch.isCurrent(signal) || this.#reachable === reachable) return;
          this.#reachable = reachable;
          this.#host.requestUpdate();
          this.#options.announce(reachable ? m.processing.status(m.processing.statusNames.IN_PROCESS) : m.processing.offline);
        },
        onStatus: (state) => {
          if (!this.#watch.isCurrent(signal)) return;
          this.#liveStatus = state;
          this.#host.requestUpdate();
          if (state.status === 'IN_PROCESS') this.#options.announce(m.processing.status(m.processing.statusNames.IN_PROCESS));
        },
      });
      if (!this.#watch.isCurrent(signal)) return;
      this.#finish(final);
    } catch (error) {
      if (!this.#watch.isCurrent(signal)) return;
      const e = asCompanionError(error);
      clearTimeout(this.#phaseTimer);
      this.#processingProblem = e.code === 'status_timeout' || e.retryable ? 'gave-up' : 'lost';
      this.#host.requestUpdate();
      const message = this.#processingProblem === 'gave-up' ? m.processing.gaveUp : m.processing.lost;
      this.#host.dispatchEvent(new OnboardingErrorEvent({ code: e.code, message }));
    } finally {
      this.#watch.end(signal);
    }
  }

  /**
   * The final status of an onboarding another device sent (the phone the session was handed to):
   * the outcome shows, and `onboarding-complete` fires, as if it had been sent from here.
   */
  showOutcome(final: Pick<FinalState, 'tokenOnboarding' | 'status' | 'externalId'>): void {
    this.#token = final.tokenOnboarding;
    this.#finish({ ...final, updatedAt: new Date().toISOString() });
  }

  /** Cancels whatever runs and forgets the onboarding, its key included. */
  reset(): void {
    this.#upload.cancel();
    this.#watch.cancel();
    removeEventListener('beforeunload', warnBeforeLeaving);
    clearTimeout(this.#phaseTimer);
    this.#forgetKept();
    this.#since = null;
    this.#reachable = true;
    this.#interrupted = { upload: false, watch: false };
    this.#accessKey = null;
    this.#attempt = null;
    this.#percent = null;
    this.#uploadError = null;
    this.#cancelled = false;
    this.#token = null;
    this.#liveStatus = null;
    this.#processingProblem = null;
    this.#outcome = null;
    this.#host.requestUpdate();
  }

  #finish(final: FinalState): void {
    this.#outcome = final;
    // Final: nothing more will be read for this onboarding, here or after a reload.
    this.#accessKey = null;
    clearTimeout(this.#phaseTimer);
    this.#forgetKept();
    this.#host.requestUpdate();
    this.#options.goTo('outcome');
    this.#host.dispatchEvent(
      new OnboardingCompleteEvent({
        tokenOnboarding: final.tokenOnboarding,
        status: final.status,
        ...(final.externalId && { externalId: final.externalId }),
      }),
    );
  }

  #failUpload(error: CompanionError): void {
    this.#uploadError = error;
    this.#percent = null;
    this.#host.requestUpdate();
    const { messages, locale } = this.#options.context.current;
    const message = uploadErrorMessage(error, messages, locale);
    this.#host.dispatchEvent(
      new OnboardingErrorEvent({ code: error.code, message, ...(error.externalId && { externalId: error.externalId }) }),
    );
  }

  #keep(): void {
    const { resumeKey: key, endpoint } = this.#options.context.current;
    if (!key || !this.#token || !this.#accessKey) return;
    const kept: KeptOnboarding = { tokenOnboarding: this.#token, accessKey: this.#accessKey, endpoint, savedAt: this.#since ?? Date.now() };
    if (storeKept(key, kept)) this.#keptUnder = key;
  }

  #forgetKept(): void {
    if (this.#keptUnder) forget(this.#keptUnder);
    this.#keptUnder = null;
  }

  /** Wakes the host when the wait crosses into its next phase, whose words differ. */
  #schedulePhase(): void {
    clearTimeout(this.#phaseTimer);
    if (this.#since === null) return;
    const waited = Date.now() - this.#since;
    const next = waited < SLOW_AFTER_MS ? SLOW_AFTER_MS : waited < REVIEW_AFTER_MS ? REVIEW_AFTER_MS : null;
    if (next === null) return;
    this.#phaseTimer = setTimeout(() => {
      this.#host.requestUpdate();
      this.#schedulePhase();
    }, next - waited);
  }

  #attemptFor(body: CreateOnboardingRequest): { key: string; integrity?: Promise<CaptureIntegrityClaim | undefined> } {
    if (!this.#attempt || !sameRequest(this.#attempt.body, body)) this.#attempt = { key: newIdempotencyKey(), body };
    return this.#attempt;
  }

  #setPercent(percent: number): void {
    this.#percent = percent;
    this.#host.requestUpdate();
  }
}
