/**
 * Vue 3 template types for `<onboarding-flow>` (Volar / vue-tsc): its properties and its
 * `onboarding-*` events, so `<onboarding-flow :endpoint="url" @onboarding-complete="done">`
 * is type-checked. Types only: vue is not a dependency of this package. Opt in once, in any
 * .d.ts or .ts file of the Vue app:
 *
 *   import type {} from '@onboarding-kit/element/vue';
 *
 * At run time Vue must also be told the tag is a custom element (compilerOptions.isCustomElement);
 * see docs/distribution.md.
 */
import type { DefineComponent } from 'vue';
import type { OnboardingEventMap, OnboardingEventName, OnboardingFlow } from '@onboarding-kit/element';

/** The element's configuration, by property name (`:documentTypes`, `.prop`) and attribute name. */
export interface OnboardingFlowVueProps {
  /** Companion base URL, with or without the trailing `/v1`. */
  endpoint?: OnboardingFlow['endpoint'];
  /** `pt-BR` (default), `en` or `es`. */
  locale?: OnboardingFlow['locale'];
  /** Comma-separated document types offered, e.g. `"CNH,RG"`. */
  documentTypes?: OnboardingFlow['documentTypes'];
  'document-types'?: OnboardingFlow['documentTypes'];
  /** Prefills the CPF field. */
  cpf?: OnboardingFlow['cpf'];
  /** Prefills the optional name field. */
  name?: OnboardingFlow['name'];
  /** Target size in bytes of each compressed photo. */
  maxImageBytes?: OnboardingFlow['maxImageBytes'];
  'max-image-bytes'?: OnboardingFlow['maxImageBytes'] | `${number}`;
  /** Longest edge in pixels of each compressed photo. */
  maxLongEdge?: OnboardingFlow['maxLongEdge'];
  'max-long-edge'?: OnboardingFlow['maxLongEdge'] | `${number}`;
  /** The client secret of a session opened by the integrator's backend (never reflected). */
  session?: OnboardingFlow['session'];
  /** Offers "Continue on your phone" on the capture steps (with a `session`). */
  handoff?: OnboardingFlow['handoff'];
  /** The data controller the consent names (the company collecting the data). */
  controllerName?: OnboardingFlow['controllerName'];
  'controller-name'?: OnboardingFlow['controllerName'];
  /** The controller's privacy policy (http or https), linked from the consent. */
  privacyUrl?: OnboardingFlow['privacyUrl'];
  'privacy-url'?: OnboardingFlow['privacyUrl'];
}

type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

/** The prop Vue maps a listener to: `@onboarding-step-change` -> `onOnboardingStepChange`. */
export type OnboardingVueHandlerName<N extends OnboardingEventName = OnboardingEventName> = `on${Capitalize<CamelCase<N>>}`;

type VueEventProps = {
  [N in OnboardingEventName as OnboardingVueHandlerName<N>]?: (event: OnboardingEventMap[N]) => void;
};

/** `@onboarding-step-change="..."` and so on, for every event the element dispatches. */
export interface OnboardingFlowVueEvents extends VueEventProps {}

export type OnboardingFlowVueComponent = DefineComponent<OnboardingFlowVueProps & OnboardingFlowVueEvents>;

declare module 'vue' {
  interface GlobalComponents {
    'onboarding-flow': OnboardingFlowVueComponent;
  }
}
