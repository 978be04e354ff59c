'use client';
/**
 * React wrapper for `<onboarding-flow>`: typed props for the element's properties and an `on...`
 * callback per event. Works in React 18 and 19. A client component (`'use client'` for the
 * Next.js App Router); importing it during server-side rendering is safe: the element module
 * touches no DOM at import (Lit's Node build brings its DOM shim) and @lit/react's Node build
 * renders just the tag, whose properties are set once the element upgrades in the browser.
 */
import * as React from 'react';
import { createComponent, type EventName } from '@lit/react';
import {
  OnboardingFlow as OnboardingFlowElement,
  type OnboardingCancelEvent,
  type OnboardingCaptureEvent,
  type OnboardingCompleteEvent,
  type OnboardingErrorEvent,
  type OnboardingStepChangeEvent,
  type OnboardingSubmittedEvent,
} from '@onboarding-kit/element';

export { OnboardingFlowElement };
export type {
  OnboardingCancelEvent,
  OnboardingCaptureEvent,
  OnboardingCompleteEvent,
  OnboardingErrorEvent,
  OnboardingStepChangeEvent,
  OnboardingSubmittedEvent,
  OnboardingCancelDetail,
  OnboardingCaptureDetail,
  OnboardingCompleteDetail,
  OnboardingErrorDetail,
  OnboardingStepChangeDetail,
  OnboardingSubmittedDetail,
} from '@onboarding-kit/element';

/** Callback prop -> DOM event of the element. */
export const ONBOARDING_FLOW_EVENTS = {
  onStepChange: 'onboarding-step-change' as EventName<OnboardingStepChangeEvent>,
  onCapture: 'onboarding-capture' as EventName<OnboardingCaptureEvent>,
  onSubmitted: 'onboarding-submitted' as EventName<OnboardingSubmittedEvent>,
  onComplete: 'onboarding-complete' as EventName<OnboardingCompleteEvent>,
  onError: 'onboarding-error' as EventName<OnboardingErrorEvent>,
  onCancel: 'onboarding-cancel' as EventName<OnboardingCancelEvent>,
};

/** The element's public configuration, set as properties (not attributes) on every render. */
export type OnboardingFlowProperties = Partial<
  Pick<OnboardingFlowElement, 'endpoint' | 'locale' | 'documentTypes' | 'cpf' | 'name' | 'maxImageBytes' | 'maxLongEdge'>
>;

export interface OnboardingFlowCallbacks {
  /** The visible step changed (`detail: { step, previous }`). */
  onStepChange?: (event: OnboardingStepChangeEvent) => void;
  /** A photo passed the checks (`detail: { role, bytes, width, height }`, never the image). */
  onCapture?: (event: OnboardingCaptureEvent) => void;
  /** The companion accepted the upload (`detail: { tokenOnboarding }`). */
  onSubmitted?: (event: OnboardingSubmittedEvent) => void;
  /** A final status arrived (`detail: { tokenOnboarding, status, externalId? }`). */
  onComplete?: (event: OnboardingCompleteEvent) => void;
  /** Something failed: camera, upload or status (`detail: { code, message, externalId? }`). */
  onError?: (event: OnboardingErrorEvent) => void;
  /** The person declined consent or cancelled the upload (`detail: { step }`). */
  onCancel?: (event: OnboardingCancelEvent) => void;
}

/** Element properties, callbacks, and the usual HTML attributes (id, className, style, children for slots). */
export type OnboardingFlowProps = Omit<React.HTMLAttributes<OnboardingFlowElement>, keyof OnboardingFlowProperties | keyof OnboardingFlowCallbacks> &
  OnboardingFlowProperties &
  OnboardingFlowCallbacks &
  React.RefAttributes<OnboardingFlowElement>;

export type OnboardingFlowComponent = React.ForwardRefExoticComponent<OnboardingFlowProps>;

/**
 * The component for a given React. `OnboardingFlow` below uses the `react` your bundler
 * resolves; this is for setups that hold another React instance (tests, micro-frontends).
 */
export function createOnboardingFlow(react: typeof React): OnboardingFlowComponent {
  return createComponent({
    react,
    tagName: 'onboarding-flow',
    elementClass: OnboardingFlowElement,
    events: ONBOARDING_FLOW_EVENTS,
    displayName: 'OnboardingFlow',
  }) as OnboardingFlowComponent;
}

export const OnboardingFlow: OnboardingFlowComponent = createOnboardingFlow(React);
