/**
 * Events of `<onboarding-flow>`: each a typed `CustomEvent` subclass named `onboarding-*` that
 * bubbles and crosses shadow roots. No detail ever holds an image, base64 or the access key.
 */
import type { OnboardingStatus } from '@onboarding-kit/contract';
import type { CaptureRole } from './image/pipeline.js';
import type { OnboardingStep } from './onboarding-flow/steps.js';

export interface OnboardingStepChangeDetail {
  step: OnboardingStep;
  previous: OnboardingStep | null;
}
export interface OnboardingCaptureDetail {
  role: CaptureRole;
  bytes: number;
  width: number;
  height: number;
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
}
export interface OnboardingCancelDetail {
  step: OnboardingStep;
}

const init = <T>(detail: T): CustomEventInit<T> => ({ detail, bubbles: true, composed: true });

export class OnboardingStepChangeEvent extends CustomEvent<OnboardingStepChangeDetail> {
  static readonly eventName = 'onboarding-step-change';
  constructor(detail: OnboardingStepChangeDetail) {
    super(OnboardingStepChangeEvent.eventName, init(detail));
  }
}
export class OnboardingCaptureEvent extends CustomEvent<OnboardingCaptureDetail> {
  static readonly eventName = 'onboarding-capture';
  constructor(detail: OnboardingCaptureDetail) {
    super(OnboardingCaptureEvent.eventName, init(detail));
  }
}
export class OnboardingSubmittedEvent extends CustomEvent<OnboardingSubmittedDetail> {
  static readonly eventName = 'onboarding-submitted';
  constructor(detail: OnboardingSubmittedDetail) {
    super(OnboardingSubmittedEvent.eventName, init(detail));
  }
}
export class OnboardingCompleteEvent extends CustomEvent<OnboardingCompleteDetail> {
  static readonly eventName = 'onboarding-complete';
  constructor(detail: OnboardingCompleteDetail) {
    super(OnboardingCompleteEvent.eventName, init(detail));
  }
}
export class OnboardingErrorEvent extends CustomEvent<OnboardingErrorDetail> {
  static readonly eventName = 'onboarding-error';
  constructor(detail: OnboardingErrorDetail) {
    super(OnboardingErrorEvent.eventName, init(detail));
  }
}
export class OnboardingCancelEvent extends CustomEvent<OnboardingCancelDetail> {
  static readonly eventName = 'onboarding-cancel';
  constructor(detail: OnboardingCancelDetail) {
    super(OnboardingCancelEvent.eventName, init(detail));
  }
}

declare global {
  interface HTMLElementEventMap {
    'onboarding-step-change': OnboardingStepChangeEvent;
    'onboarding-capture': OnboardingCaptureEvent;
    'onboarding-submitted': OnboardingSubmittedEvent;
    'onboarding-complete': OnboardingCompleteEvent;
    'onboarding-error': OnboardingErrorEvent;
    'onboarding-cancel': OnboardingCancelEvent;
  }
}
