import { LitElement, css, html, nothing, svg, type ReactiveController, type ReactiveElement } from 'lit';
import { CompanionError } from '../api/errors.js';
import { cssProperty } from '../directives/css-property.js';
import {
  OnboardingCancelEvent,
  OnboardingContinueEvent,
  OnboardingCaptureEvent,
  OnboardingCompleteEvent,
  OnboardingErrorEvent,
  OnboardingSubmittedEvent,
} from '../events.js';
import { lazyOnce } from '../messages/lazy-once.js';

import type * as PhotoStepsModule from './photo-steps.js';

/** The lazily loaded steps after the data: capture, review, upload, wait and outcome, with their controllers. */
export type PhotoSteps = typeof PhotoStepsModule;

/**
 * Loads the photo steps once (from beside the script in the script-tag forms; a failed load is
 * forgotten, so the next call, a Retry, tries again) and hands them the element's Lit and events.
 */
export const loadPhotoSteps: () => Promise<PhotoSteps> = lazyOnce(
  () =>
    import('./photo-steps.js').then((module) => {
      module.provideKit({
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
      });
      return module;
    }),
  'photo-steps',
);

/**
 * A place in the host's controller order kept for controllers created later (the lazily loaded
 * capture controller and its camera): they get the host callbacks at the slot's position, as
 * if they had been added when the host was built.
 */
export class ControllerSlot implements ReactiveController {
  readonly #host: ReactiveElement;
  readonly #controllers: ReactiveController[] = [];
  /** The host as the slot's controllers see it: `addController` puts them in the slot. */
  readonly host: ReactiveElement;

  constructor(host: ReactiveElement) {
    this.#host = host;
    host.addController(this);
    this.host = new Proxy(host, {
      get: (target, key) => {
        if (key === 'addController') return (controller: ReactiveController) => this.#add(controller);
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  }

  #add(controller: ReactiveController): void {
    this.#controllers.push(controller);
    // As Lit does for a controller added to a host already in the document.
    if (this.#host.isConnected && this.#host.renderRoot !== undefined) controller.hostConnected?.();
  }

  hostConnected(): void {
    for (const c of this.#controllers) c.hostConnected?.();
  }
  hostDisconnected(): void {
    for (const c of this.#controllers) c.hostDisconnected?.();
  }
  hostUpdate(): void {
    for (const c of this.#controllers) c.hostUpdate?.();
  }
  hostUpdated(): void {
    for (const c of this.#controllers) c.hostUpdated?.();
  }
}
