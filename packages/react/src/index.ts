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
  ONBOARDING_EVENTS,
  OnboardingFlow as OnboardingFlowElement,
  type OnboardingEventMap,
  type OnboardingEventName,
  type OnboardingCancelEvent,
  type OnboardingCaptureEvent,
  type OnboardingCompleteEvent,
  type OnboardingErrorEvent,
  type OnboardingHandoffEvent,
  type OnboardingStepChangeEvent,
  type OnboardingSubmittedEvent,
} from '@onboarding-kit/element';

export { OnboardingFlowElement };
export type {
  OnboardingCancelEvent,
  OnboardingCaptureEvent,
  OnboardingCompleteEvent,
  OnboardingErrorEvent,
  OnboardingHandoffEvent,
  OnboardingStepChangeEvent,
  OnboardingSubmittedEvent,
  OnboardingCancelDetail,
  OnboardingCaptureDetail,
  OnboardingCompleteDetail,
  OnboardingErrorDetail,
  OnboardingHandoffDetail,
  OnboardingStepChangeDetail,
  OnboardingSubmittedDetail,
} from '@onboarding-kit/element';

type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

/** The callback prop of an element event: `onboarding-step-change` -> `onStepChange`. */
export type OnboardingCallbackName<N extends OnboardingEventName = OnboardingEventName> = N extends `onboarding-${infer Rest}`
  ? `on${Capitalize<CamelCase<Rest>>}`
  : never;

function callbackName<N extends OnboardingEventName>(event: N): OnboardingCallbackName<N> {
  const camel = event.slice('onboarding-'.length).replace(/(?:^|-)([a-z])/g, (_, letter: string) => letter.toUpperCase());
  return `on${camel}` as OnboardingCallbackName<N>;
}

/** Callback prop -> DOM event, for every event the element dispatches (its ONBOARDING_EVENTS). */
export const ONBOARDING_FLOW_EVENTS = Object.fromEntries(ONBOARDING_EVENTS.map((event) => [callbackName(event), event])) as {
  [N in OnboardingEventName as OnboardingCallbackName<N>]: EventName<OnboardingEventMap[N]>;
};

/** The element's public configuration, set as properties (not attributes) on every render. */
export type OnboardingFlowProperties = Partial<
  Pick<
    OnboardingFlowElement,
    | 'endpoint'
    | 'locale'
    | 'documentTypes'
    | 'cpf'
    | 'name'
    | 'maxImageBytes'
    | 'maxLongEdge'
    | 'session'
    | 'handoff'
    | 'controllerName'
    | 'privacyUrl'
  >
>;

export interface OnboardingFlowCallbacks {
  /** The visible step changed (`detail: { step, previous }`). */
  onStepChange?: (event: OnboardingStepChangeEvent) => void;
  /** A photo passed the checks (`detail: { role, bytes, width, height }`, never the image). */
  onCapture?: (event: OnboardingCaptureEvent) => void;
  /** The hand-off to a phone moved on (`detail: { state }`: offered, claimed, reclaimed, expired). */
  onHandoff?: (event: OnboardingHandoffEvent) => void;
  /** The companion accepted the upload (`detail: { tokenOnboarding }`). */
  onSubmitted?: (event: OnboardingSubmittedEvent) => void;
  /** A final status arrived (`detail: { tokenOnboarding, status, externalId? }`). */
  onComplete?: (event: OnboardingCompleteEvent) => void;
  /** Something failed: camera, upload or status (`detail: { code, message, externalId? }`). */
  onError?: (event: OnboardingErrorEvent) => void;
  /** The person declined consent or cancelled the upload (`detail: { step }`). */
  onCancel?: (event: OnboardingCancelEvent) => void;
}

// A compile error unless OnboardingFlowCallbacks has exactly one callback per event, typed by its event.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
type DerivedCallbacks = { [N in OnboardingEventName as OnboardingCallbackName<N>]?: (event: OnboardingEventMap[N]) => void };
type _CallbacksMatchEvents = Assert<Same<Required<OnboardingFlowCallbacks>, Required<DerivedCallbacks>>>;

/** Element properties, callbacks, and the usual HTML attributes (id, className, style, children for slots). */
export type OnboardingFlowProps = Omit<
  React.HTMLAttributes<OnboardingFlowElement>,
  keyof OnboardingFlowProperties | keyof OnboardingFlowCallbacks
> &
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
