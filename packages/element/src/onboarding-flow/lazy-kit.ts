/**
 * What the element hands to its lazily loaded photo steps (photo-steps.ts): its own Lit, its
 * `cssProperty` directive and its event classes. The script-tag build of the photo steps
 * (vite.config.ts, `photoStepsBuild`) resolves every import of `lit`, of
 * `directives/css-property.js`, of `events.js` and of `api/errors.js` in that file to this module, so the lazy file
 * carries no second Lit (whose `nothing` and template parts would not be the element's) and
 * dispatches (and throws) the very classes the page imported from the bundle (`instanceof` holds).
 *
 * The bindings are live: they are set by `provideKit` before any template of the lazy file is
 * rendered or any of its events is fired. In the npm build and from source, the lazy modules
 * import Lit and the events themselves, and these bindings go unused.
 */
import type * as Lit from 'lit';
import type * as Events from '../events.js';
import type { cssProperty as CssProperty } from '../directives/css-property.js';
import type { CompanionError as CompanionErrorClass } from '../api/errors.js';

export interface Kit {
  LitElement: typeof Lit.LitElement;
  html: typeof Lit.html;
  svg: typeof Lit.svg;
  css: typeof Lit.css;
  nothing: typeof Lit.nothing;
  cssProperty: typeof CssProperty;
  OnboardingCaptureEvent: typeof Events.OnboardingCaptureEvent;
  OnboardingSubmittedEvent: typeof Events.OnboardingSubmittedEvent;
  OnboardingCompleteEvent: typeof Events.OnboardingCompleteEvent;
  OnboardingErrorEvent: typeof Events.OnboardingErrorEvent;
  OnboardingCancelEvent: typeof Events.OnboardingCancelEvent;
  OnboardingContinueEvent: typeof Events.OnboardingContinueEvent;
  CompanionError: typeof CompanionErrorClass;
}

export let LitElement: Kit['LitElement'];
export let html: Kit['html'];
export let svg: Kit['svg'];
export let css: Kit['css'];
export let nothing: Kit['nothing'];
export let cssProperty: Kit['cssProperty'];
export let OnboardingCaptureEvent: Kit['OnboardingCaptureEvent'];
export let OnboardingSubmittedEvent: Kit['OnboardingSubmittedEvent'];
export let OnboardingCompleteEvent: Kit['OnboardingCompleteEvent'];
export let OnboardingErrorEvent: Kit['OnboardingErrorEvent'];
export let OnboardingCancelEvent: Kit['OnboardingCancelEvent'];
export let OnboardingContinueEvent: Kit['OnboardingContinueEvent'];
export let CompanionError: Kit['CompanionError'];

/** Called by the element once the lazy file has loaded, before it uses anything in it. */
export function provideKit(kit: Kit): void {
  ({
    LitElement,
    html,
    svg,
    css,
    nothing,
    cssProperty,
    OnboardingCaptureEvent,
    OnboardingSubmittedEvent,
    OnboardingCompleteEvent,
    OnboardingErrorEvent,
    OnboardingCancelEvent,
    OnboardingContinueEvent,
    CompanionError,
  } = kit);
}
