/**
 * Step navigation of `<onboarding-flow>` as a Lit reactive controller: the visible step, Next
 * and Back through the person's sequence (with the detour of a retake started from the review),
 * the `onboarding-step-change` event, focus on each new step's heading, and the polite live
 * region that tells screen-reader users where they are and what happened.
 */
import type { ReactiveController, ReactiveElement } from 'lit';
import { OnboardingStepChangeEvent } from '../events.js';
import type { FlowContextSource } from '../onboarding-flow/flow-context.js';
import {
  FIRST_STEP,
  isCaptureStep,
  isRetakeStep,
  progressStages,
  stageOf,
  type RetakeStep,
  type FlowShape,
  type OnboardingStep,
} from '../onboarding-flow/steps.js';

export interface NavigationOptions {
  /** The steps this person goes through now, in order. */
  sequence(): readonly OnboardingStep[];
  /** What the session changes in the flow (the stages shown); none by default. */
  shape?(): FlowShape;
  /** The flow's settings as resolved (its messages). */
  context: FlowContextSource;
  /** The heading text of a step, as the step shows it. */
  heading(step: OnboardingStep): string;
  /** Runs before the visible step changes: whatever the old step had running stops here. */
  leave(from: OnboardingStep, to: OnboardingStep): void;
  /** Whether every photo is there, so that a retake started from the review can return to it. */
  photosComplete(): boolean;
}

export class NavigationController implements ReactiveController {
  readonly #host: ReactiveElement;
  readonly #options: NavigationOptions;
  #step: OnboardingStep = FIRST_STEP;
  #announcement = '';
  /** Set by a retake from the review: the capture steps lead back to the review, not onwards. */
  #returnToReview = false;
  #focusHeading = false;
  /** Whether focus was inside the host before the current render (to restore it if the render removed it). */
  #focusWasInside = false;

  constructor(host: ReactiveElement, options: NavigationOptions) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
  }

  get step(): OnboardingStep {
    return this.#step;
  }

  /** The text of the live region. */
  get announcement(): string {
    return this.#announcement;
  }

  /**
   * The visible step's place among the steps a person is shown (consent, data, document,
   * selfie, review), counted from 1; null on the intro, where nothing has been done yet, and after
   * sending, where nothing is left to do.
   */
  get position(): { number: number; total: number } | null {
    const shape = this.#options.shape?.() ?? {};
    const stage = stageOf(this.#step, shape);
    const stages = progressStages(shape);
    return stage ? { number: stages.indexOf(stage) + 1, total: stages.length } : null;
  }

  hostUpdate(): void {
    this.#focusWasInside = !!this.#host.shadowRoot?.activeElement;
  }

  hostUpdated(): void {
    const root = this.#host.renderRoot;
    if (this.#focusHeading) {
      this.#focusHeading = false;
      root.querySelector<HTMLElement>('h2')?.focus();
    } else if (this.#focusWasInside && !this.#host.shadowRoot?.activeElement) {
      // The focused control was replaced (camera went live, photo accepted): keyboard users
      // continue from the step's main action instead of the top of the page.
      root.querySelector<HTMLElement>('[part~=button-primary]:not([disabled])')?.focus();
    }
  }

  goTo(step: OnboardingStep): void {
    const previous = this.#step;
    if (step === previous) return;
    this.#options.leave(previous, step);
    this.#step = step;
    this.#focusHeading = true;
    this.announceStep();
    this.#host.requestUpdate();
    this.#host.dispatchEvent(new OnboardingStepChangeEvent({ step, previous }));
  }

  next(): void {
    if (this.#returnToReview && isRetakeStep(this.#step) && this.#options.photosComplete()) {
      this.#returnToReview = false;
      return this.goTo('review');
    }
    const sequence = this.#options.sequence();
    const next = sequence[sequence.indexOf(this.#step) + 1];
    if (next) this.goTo(next);
  }

  /** Whether Back leads somewhere: not from the step a handed-off flow resumed at. */
  get canGoBack(): boolean {
    const sequence = this.#options.sequence();
    return this.#returnToReview || sequence.indexOf(this.#step) > 0;
  }

  back(): void {
    if (this.#returnToReview && isRetakeStep(this.#step)) {
      this.#returnToReview = false;
      return this.goTo('review');
    }
    const sequence = this.#options.sequence();
    const previous = sequence[sequence.indexOf(this.#step) - 1];
    if (previous) this.goTo(previous);
  }

  /** Opens a capture step from the review (or an upload error): Use and Back lead back to the review. */
  retakeFromReview(step: RetakeStep): void {
    this.#returnToReview = true;
    this.goTo(step);
  }

  announce(text: string): void {
    // A changed string is what makes screen readers speak a polite region again.
    this.#announcement = this.#announcement === text ? `${text}\u00a0` : text;
    this.#host.requestUpdate();
  }

  /** Says which step is visible, its position, and on a capture step how to frame the photo. */
  announceStep(): void {
    const m = this.#options.context.current.messages;
    const step = this.#step;
    const position = this.position;
    const heading = this.#options.heading(step);
    const guidance = isCaptureStep(step) ? ` ${step === 'selfie' ? m.capture.guideSelfie : m.capture.guideDocument}` : '';
    this.announce(`${position ? m.flow.announceStep(heading, position.number, position.total) : heading}.${guidance}`);
  }

  /** After the next render, focus goes to the visible step's heading, which is announced now. */
  presentStep(): void {
    this.#focusHeading = true;
    this.announceStep();
  }

  /** Back to the first step (the intro), silently: no focus move, the live region emptied. */
  reset(): void {
    this.#returnToReview = false;
    this.#announcement = '';
    const previous = this.#step;
    this.#step = FIRST_STEP;
    this.#host.requestUpdate();
    if (previous !== FIRST_STEP) this.#host.dispatchEvent(new OnboardingStepChangeEvent({ step: FIRST_STEP, previous }));
  }
}
