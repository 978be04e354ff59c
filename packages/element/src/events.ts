/**
 * Events of `<onboarding-flow>`: each a typed `CustomEvent` subclass named `onboarding-*` that
 * bubbles and crosses shadow roots. No detail ever holds an image, base64 or the access key.
 */
import type { OnboardingStatus } from '@onboarding-kit/contract';
import type { CaptureRole } from './image/pipeline.js';
import type { OnboardingStep } from './onboarding-flow/steps.js';
import type { OnboardingEventName } from './event-names.js';

export { ONBOARDING_EVENTS, type OnboardingEventName } from './event-names.js';

export interface OnboardingStepChangeDetail {
  step: OnboardingStep;
  previous: OnboardingStep | null;
}
export interface OnboardingCaptureDetail {
  role: CaptureRole;
  bytes: number;
  width: number;
  height: number;
  /**
   * Where the photo was decoded, checked and encoded: the image 'worker', or the 'main-thread'
   * when the engine has no OffscreenCanvas (Safari before 16.4) or the worker could not start.
   */
  processedIn: 'worker' | 'main-thread';
  /**
   * Which code resized and encoded the JPEG: 'own' (the element's canvas encode, once, whenever
   * its first JPEG is within the byte cap: every camera photo, which reaches it as pixels, and most
   * files; also its own lower-quality loop where the library cannot run: WebKit's worker, the main
   * thread, a library output that missed a cap) or 'library' (browser-image-compression, run inside
   * the image worker in Chromium and Firefox, for a picked file whose first JPEG was over the cap).
   */
  processedBy: 'library' | 'own';
  /**
   * Present (true) when the person kept a photo the checks had refused twice in a row ("use it
   * anyway"): the integrator may want a closer look at it.
   */
  keptAnyway?: true;
}
export interface OnboardingSubmittedDetail {
  tokenOnboarding: string;
}
export interface OnboardingCompleteDetail {
  tokenOnboarding: string;
  status: Exclude<OnboardingStatus, 'IN_PROCESS'>;
  externalId?: string;
}
export interface OnboardingErrorDetail {
  code: string;
  message: string;
  externalId?: string;
  /** Technical reason, in English, when `message` alone cannot say it (e.g. why a photo could not be prepared). */
  reason?: string;
}
/**
 * Where the hand-off of the session to another device stands: `offered` (a QR code and short
 * code are shown, again after each new code), `claimed` (a phone holds the session; also said on
 * a reload that resumes following), `reclaimed` (the session came back to the computer: on the
 * computer once it took it back, on the phone when it lost it), `expired` (the code lapsed unused).
 */
export interface OnboardingHandoffDetail {
  state: 'offered' | 'claimed' | 'reclaimed' | 'expired';
}
export interface OnboardingCancelDetail {
  step: OnboardingStep;
}
/** "Continuar" on the APPROVED screen, offered with the `continue-event` attribute: the page takes the person on. */
export interface OnboardingContinueDetail {
  tokenOnboarding: string;
  status: 'APPROVED';
}

const init = <T>(detail: T): CustomEventInit<T> => ({ detail, bubbles: true, composed: true });

export class OnboardingStepChangeEvent extends CustomEvent<OnboardingStepChangeDetail> {
  static readonly eventName = 'onboarding-step-change' satisfies OnboardingEventName;
  constructor(detail: OnboardingStepChangeDetail) {
    super(OnboardingStepChangeEvent.eventName, init(detail));
  }
}
export class OnboardingCaptureEvent extends CustomEvent<OnboardingCaptureDetail> {
  static readonly eventName = 'onboarding-capture' satisfies OnboardingEventName;
  constructor(detail: OnboardingCaptureDetail) {
    super(OnboardingCaptureEvent.eventName, init(detail));
  }
}
export class OnboardingSubmittedEvent extends CustomEvent<OnboardingSubmittedDetail> {
  static readonly eventName = 'onboarding-submitted' satisfies OnboardingEventName;
  constructor(detail: OnboardingSubmittedDetail) {
    super(OnboardingSubmittedEvent.eventName, init(detail));
  }
}
export class OnboardingCompleteEvent extends CustomEvent<OnboardingCompleteDetail> {
  static readonly eventName = 'onboarding-complete' satisfies OnboardingEventName;
  constructor(detail: OnboardingCompleteDetail) {
    super(OnboardingCompleteEvent.eventName, init(detail));
  }
}
export class OnboardingErrorEvent extends CustomEvent<OnboardingErrorDetail> {
  static readonly eventName = 'onboarding-error' satisfies OnboardingEventName;
  constructor(detail: OnboardingErrorDetail) {
    super(OnboardingErrorEvent.eventName, init(detail));
  }
}
export class OnboardingHandoffEvent extends CustomEvent<OnboardingHandoffDetail> {
  static readonly eventName = 'onboarding-handoff' satisfies OnboardingEventName;
  constructor(detail: OnboardingHandoffDetail) {
    super(OnboardingHandoffEvent.eventName, init(detail));
  }
}
export class OnboardingCancelEvent extends CustomEvent<OnboardingCancelDetail> {
  static readonly eventName = 'onboarding-cancel' satisfies OnboardingEventName;
  constructor(detail: OnboardingCancelDetail) {
    super(OnboardingCancelEvent.eventName, init(detail));
  }
}

export class OnboardingContinueEvent extends CustomEvent<OnboardingContinueDetail> {
  static readonly eventName = 'onboarding-continue' satisfies OnboardingEventName;
  constructor(detail: OnboardingContinueDetail) {
    super(OnboardingContinueEvent.eventName, init(detail));
  }
}

/** Each event's name and the class of its instances. */
export interface OnboardingEventMap {
  'onboarding-step-change': OnboardingStepChangeEvent;
  'onboarding-capture': OnboardingCaptureEvent;
  'onboarding-handoff': OnboardingHandoffEvent;
  'onboarding-submitted': OnboardingSubmittedEvent;
  'onboarding-complete': OnboardingCompleteEvent;
  'onboarding-error': OnboardingErrorEvent;
  'onboarding-cancel': OnboardingCancelEvent;
  'onboarding-continue': OnboardingContinueEvent;
}

// A compile error unless the map and ONBOARDING_EVENTS name exactly the same events.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
export type _MapMatchesList = Assert<Same<keyof OnboardingEventMap, OnboardingEventName>>;

declare global {
  // `addEventListener('onboarding-complete', (e) => e.detail.status)` is typed on any element.
  interface HTMLElementEventMap extends OnboardingEventMap {}
}
