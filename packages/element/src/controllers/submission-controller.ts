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
  type CreateOnboardingRequest,
  type OnboardingState,
} from '@onboarding-kit/contract';
import type { ReactiveController, ReactiveElement } from 'lit';
import { CompanionError, createOnboarding, watchStatus, type FinalState, type PollOptions } from '../api/index.js';
import type { CaptureRole } from '../image/pipeline.js';
import { OnboardingCancelEvent, OnboardingCompleteEvent, OnboardingErrorEvent, OnboardingSubmittedEvent } from '../events.js';
import type { Messages } from '../messages/index.js';
import { LatestRun } from './latest-run.js';

export type ProcessingProblem = 'gave-up' | 'lost';

export interface SubmissionOptions {
  /** The companion's base URL, normalised (`.../v1`). */
  endpoint(): string;
  pollOptions(): Partial<PollOptions>;
  /** Decoded size cap per image, checked before anything is sent. */
  maxImageBytes(): number;
  /** What the person entered and photographed, read when the upload starts. */
  request(): CreateOnboardingRequest;
  messages(): Messages;
  announce(text: string): void;
  goTo(step: 'upload' | 'review' | 'processing' | 'outcome'): void;
  /** The companion accepted the upload: the photos have no further use on this page. */
  sent(): void;
  /** The client secret of the session the creation is bound to, or null without one. */
  clientSecret?(): string | null;
}

/** Errors after which nothing this page can send will be accepted: the session is spent, gone or unknown. */
const SESSION_ENDED = new Set(['session_used', 'session_expired', 'session_invalid']);

/** Whether a failed upload ended the flow for this page (no retry, no way back to the photos). */
export function uploadErrorIsFinal(error: CompanionError): boolean {
  return SESSION_ENDED.has(error.code);
}

/** Whether sending the same content again could succeed. */
export function uploadErrorIsRetryable(error: CompanionError): boolean {
  return !uploadErrorIsFinal(error) && error.code !== 'session_mismatch' && error.code !== 'idempotency_conflict';
}

/** A version 4 UUID from getRandomValues, which (unlike randomUUID) also exists outside secure contexts. */
export function newIdempotencyKey(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Whether two creation bodies are the same content (photos compared by their base64). */
export function sameRequest(a: CreateOnboardingRequest, b: CreateOnboardingRequest): boolean {
  const fields = ['cpf', 'cnpj', 'name', 'documentType'] as const;
  if (fields.some((f) => a[f] !== b[f])) return false;
  const roles = new Set([...Object.keys(a.images), ...Object.keys(b.images)]) as Set<keyof CreateOnboardingRequest['images']>;
  return [...roles].every((role) => a.images[role] === b.images[role]);
}

const asCompanionError = (error: unknown): CompanionError =>
  error instanceof CompanionError ? error : new CompanionError({ code: 'network', message: String(error), status: 0 });

/** What the person reads about a failed upload. */
export function uploadErrorMessage(error: CompanionError, m: Messages): string {
  const errors = m.upload.errors;
  const code = error.code;
  // The session's own words: the link is what the person has to replace, whenever it failed.
  if (code === 'session_invalid') return m.session.invalid;
  if (code === 'session_expired') return m.session.expired;
  if (code in errors && code !== 'generic' && code !== 'upstream') return errors[code as keyof typeof errors];
  if (code.startsWith('upstream_') || error.status >= 500) return errors.upstream;
  if (error.status === 413) return errors.payload_too_large;
  if (error.status === 429) return errors.rate_limited;
  return errors.generic;
}

/** The capture role an upload error points at (`field: "images.selfie"`), if any. */
export function uploadErrorRole(error: CompanionError | null): CaptureRole | null {
  const field = error?.field ?? '';
  const role = field.startsWith('images.') ? field.slice('images.'.length) : '';
  return role === 'documentFront' || role === 'documentBack' || role === 'selfie' ? role : null;
}

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
  #attempt: { key: string; body: CreateOnboardingRequest } | null = null;
  /** What the host's leaving the document interrupted, to resume or report when it comes back. */
  #interrupted: { upload: boolean; watch: boolean } = { upload: false, watch: false };

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

  hostConnected(): void {
    // Moved in the DOM mid-flow: what hostDisconnected cancelled resumes or says so.
    const { upload, watch } = this.#interrupted;
    this.#interrupted = { upload: false, watch: false };
    if (watch && this.#accessKey && !this.#processingProblem) void this.watch();
    if (upload && !this.#uploadError && this.#percent !== null) {
      this.#failUpload(new CompanionError({ code: 'aborted', message: 'The upload was interrupted.', status: 0 }));
    }
  }

  hostDisconnected(): void {
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
    const check = validateCreateOnboarding(body, this.#options.maxImageBytes());
    if (!check.ok) {
      this.#failUpload(new CompanionError({ ...check.error, status: check.status }));
      return;
    }
    const m = this.#options.messages();
    this.#setPercent(0);
    this.#options.announce(m.upload.progress(0));
    const signal = this.#upload.begin();
    const clientSecret = this.#options.clientSecret?.() ?? null;
    // With or without a session: a retry after a lost answer must never create a second onboarding.
    const idempotencyKey = this.#keyFor(body);
    try {
      const created = await createOnboarding(this.#options.endpoint(), body, {
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
      this.#failUpload(clientSecret && e.status === 401 ? new CompanionError({ code: 'session_invalid', message: e.message, status: 401 }) : e);
    } finally {
      this.#upload.end(signal);
    }
  }

  /** The person cancelled the upload: back to the review with the photos kept. */
  cancelUpload(): void {
    this.#upload.cancel();
    this.#percent = null;
    this.#cancelled = true;
    this.#host.requestUpdate();
    this.#host.dispatchEvent(new OnboardingCancelEvent({ step: 'upload' }));
    this.#options.goTo('review');
  }

  /** Follows the status until it is final (again, after a failed watch: "Check again"). */
  async watch(): Promise<void> {
    const token = this.#token;
    const key = this.#accessKey;
    if (!token || !key) return;
    this.#processingProblem = null;
    this.#host.requestUpdate();
    const signal = this.#watch.begin();
    const m = this.#options.messages();
    try {
      const final = await watchStatus(this.#options.endpoint(), token, key, {
        signal,
        poll: this.#options.pollOptions(),
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
      this.#processingProblem = e.code === 'status_timeout' || e.retryable ? 'gave-up' : 'lost';
      this.#host.requestUpdate();
      const message = this.#processingProblem === 'gave-up' ? m.processing.gaveUp : m.processing.lost;
      this.#host.dispatchEvent(new OnboardingErrorEvent({ code: e.code, message }));
    } finally {
      this.#watch.end(signal);
    }
  }

  /** Cancels whatever runs and forgets the onboarding, its key included. */
  reset(): void {
    this.#upload.cancel();
    this.#watch.cancel();
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
    // Final: nothing more will be read for this onboarding.
    this.#accessKey = null;
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
    const message = uploadErrorMessage(error, this.#options.messages());
    this.#host.dispatchEvent(new OnboardingErrorEvent({ code: error.code, message, ...(error.externalId && { externalId: error.externalId }) }));
  }

  #keyFor(body: CreateOnboardingRequest): string {
    if (!this.#attempt || !sameRequest(this.#attempt.body, body)) this.#attempt = { key: newIdempotencyKey(), body };
    return this.#attempt.key;
  }

  #setPercent(percent: number): void {
    this.#percent = percent;
    this.#host.requestUpdate();
  }
}
