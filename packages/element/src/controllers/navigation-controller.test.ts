/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { expect } from '@open-wc/testing';
import { html } from 'lit';
import { en } from '../messages/index.js';
import { stepSequence, type OnboardingStep } from '../onboarding-flow/steps.js';
import { NavigationController, type NavigationOptions } from './navigation-controller.js';
import { mountHost, recordEvents, testContext, type ControllerTestHost } from './test-helpers.js';

interface Setup {
  host: ControllerTestHost;
  nav: NavigationController;
  events: CustomEvent[];
  /** [from, to, step the controller showed during leave()] for each leave() call. */
  leaves: [OnboardingStep, OnboardingStep, OnboardingStep][];
  state: { documentType: string; photosComplete: boolean };
}

async function setup(): Promise<Setup> {
  const host = await mountHost();
  const state = { documentType: 'CNH', photosComplete: false };
  const leaves: Setup['leaves'] = [];
  const options: NavigationOptions = {
    sequence: () => stepSequence(state.documentType),
    context: testContext(),
    heading: (step) => `Heading of ${step}`,
    leave: (from, to) => leaves.push([from, to, nav.step]),
    photosComplete: () => state.photosComplete,
  };
  const nav: NavigationController = new NavigationController(host, options);
  host.view = () => html`
    <h2 tabindex="-1">${nav.step}</h2>
    ${nav.step === 'consent' ? html`<button id="only-on-consent">Agree</button>` : ''}
    <button part="button button-primary" id="primary">Continue</button>
  `;
  host.requestUpdate();
  await host.updateComplete;
  return { host, nav, events: recordEvents(host), leaves, state };
}

const details = (events: CustomEvent[]) => events.map((e) => [e.type, e.detail]);

describe('NavigationController', () => {
  it('goTo leaves the old step first, shows the new one and fires onboarding-step-change', async () => {
    const { host, nav, events, leaves } = await setup();
    expect(nav.step).to.equal('intro');
    nav.goTo('cpf');
    expect(nav.step).to.equal('cpf');
    expect(leaves).to.deep.equal([['intro', 'cpf', 'intro']]);
    expect(details(events)).to.deep.equal([['onboarding-step-change', { step: 'cpf', previous: 'intro' }]]);
    expect(events[0]!.bubbles && events[0]!.composed).to.equal(true);
    await host.updateComplete;
    expect(host.renderRoot.querySelector('h2')!.textContent).to.equal('cpf');
    // The same step again is no change at all.
    nav.goTo('cpf');
    expect(events).to.have.length(1);
    expect(leaves).to.have.length(1);
  });

  it('next and back follow the sequence of the chosen document (a passport has no back side)', async () => {
    const { nav, state } = await setup();
    const walk = (move: () => void, times: number) => {
      const seen: OnboardingStep[] = [];
      for (let i = 0; i < times; i++) {
        move();
        seen.push(nav.step);
      }
      return seen;
    };
    expect(walk(() => nav.next(), 6)).to.deep.equal(['consent', 'cpf', 'document-type', 'document-front', 'document-back', 'selfie']);
    expect(walk(() => nav.back(), 6)).to.deep.equal(['document-back', 'document-front', 'document-type', 'cpf', 'consent', 'intro']);
    // The intro is where the flow starts: nothing before it, and it is not one of the steps shown.
    expect(nav.position).to.equal(null);
    nav.back();
    expect(nav.step).to.equal('intro');
    state.documentType = 'PASSPORT';
    nav.goTo('document-front');
    nav.next();
    expect(nav.step).to.equal('selfie');
    // Upload, processing and outcome are no steps to a person: five are shown, the selfie the fourth.
    expect(nav.position).to.deep.equal({ number: 4, total: 5 });
    nav.goTo('outcome');
    nav.next();
    expect(nav.step).to.equal('outcome');
  });

  it('a retake from the review returns to it once every photo is there, and Back returns at once', async () => {
    const { nav, state } = await setup();
    nav.goTo('review');
    nav.retakeFromReview('document-front');
    expect(nav.step).to.equal('document-front');
    // A photo is still missing: onwards through the flow.
    nav.next();
    expect(nav.step).to.equal('document-back');
    state.photosComplete = true;
    nav.next();
    expect(nav.step).to.equal('review');
    // The detour is over: from a capture step, Next goes on again.
    nav.goTo('document-back');
    nav.next();
    expect(nav.step).to.equal('selfie');

    nav.goTo('review');
    nav.retakeFromReview('document-back');
    nav.back();
    expect(nav.step).to.equal('review');
    nav.goTo('document-back');
    nav.back();
    expect(nav.step).to.equal('document-front');
  });

  it('focuses the new heading after each step change', async () => {
    const { host, nav } = await setup();
    nav.goTo('cpf');
    await host.updateComplete;
    expect(host.shadowRoot!.activeElement).to.equal(host.renderRoot.querySelector('h2'));
    // An update without a step change leaves focus alone.
    host.renderRoot.querySelector<HTMLElement>('#primary')!.focus();
    host.requestUpdate();
    await host.updateComplete;
    expect(host.shadowRoot!.activeElement!.id).to.equal('primary');
  });

  it('when a render removes the focused control, focus goes to the main action, not the page', async () => {
    const { host, nav } = await setup();
    nav.goTo('cpf');
    nav.goTo('consent');
    await host.updateComplete;
    host.renderRoot.querySelector<HTMLElement>('#only-on-consent')!.focus();
    // A change that is not a step change re-renders without the focused button.
    host.view = () => html`<h2 tabindex="-1">x</h2><button part="button button-primary" id="primary">Continue</button>`;
    host.requestUpdate();
    await host.updateComplete;
    expect(host.shadowRoot!.activeElement!.id).to.equal('primary');
  });

  it('announces each step with its heading, position and, on capture steps, the framing guidance', async () => {
    const { host, nav } = await setup();
    nav.goTo('cpf');
    expect(nav.announcement).to.equal(`${en.flow.announceStep('Heading of cpf', 2, 5)}.`);
    nav.goTo('selfie');
    expect(nav.announcement).to.equal(`${en.flow.announceStep('Heading of selfie', 4, 5)}. ${en.capture.guideSelfie}`);
    nav.goTo('document-front');
    expect(nav.announcement).to.contain(en.capture.guideDocument);
    await host.updateComplete;
  });

  it('the same announcement twice still changes the live region, so it is spoken again', async () => {
    const { nav } = await setup();
    nav.announce('Photo accepted');
    const first = nav.announcement;
    nav.announce('Photo accepted');
    expect(nav.announcement).to.not.equal(first);
    expect(nav.announcement.trim()).to.equal('Photo accepted');
  });

  it('reset returns to the intro silently; presentStep focuses and announces it (its heading alone: it has no position)', async () => {
    const { host, nav, events } = await setup();
    nav.goTo('document-type');
    events.length = 0;
    nav.reset();
    expect(nav.step).to.equal('intro');
    expect(nav.announcement).to.equal('');
    expect(details(events)).to.deep.equal([['onboarding-step-change', { step: 'intro', previous: 'document-type' }]]);
    nav.reset();
    expect(events).to.have.length(1);
    await host.updateComplete;
    host.renderRoot.querySelector<HTMLElement>('#primary')!.focus();
    nav.presentStep();
    host.requestUpdate();
    await host.updateComplete;
    expect(host.shadowRoot!.activeElement).to.equal(host.renderRoot.querySelector('h2'));
    expect(nav.announcement).to.equal('Heading of intro.');
    nav.next();
    expect(nav.announcement).to.equal(`${en.flow.announceStep('Heading of consent', 1, 5)}.`);
  });
});
