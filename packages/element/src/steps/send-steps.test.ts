/// <reference types="@onboarding-kit/testing/mocha-globals" />
/**
 * The wait and the outcome when the page does not serve the file of their words
 * (onboarding-flow.after-send.js): they still show what they can (the status, the support
 * code), and the person reads, as an alert, that the page is at fault, not their internet.
 */
import { expect } from '@open-wc/testing';
import { render } from 'lit';
import { en } from '../messages/en.js';
import { es } from '../messages/es.js';
import { outcomeStep, processingStep } from './send-steps.js';

function shown(template: ReturnType<typeof processingStep>): HTMLElement {
  const container = document.createElement('div');
  render(template, container);
  return container;
}

const alerts = (root: HTMLElement) => [...root.querySelectorAll('[role=alert]')].map((a) => a.textContent?.trim());

describe('the wait and the outcome without their words', () => {
  const wait = {
    t: null,
    status: 'IN_PROCESS' as const,
    error: null,
    reference: null,
    canCheckAgain: false,
    phase: 'usual' as const,
    offline: false,
    canClose: true,
    onCheckAgain: () => undefined,
  };

  it('the wait says the page is at fault when their file is missing, and nothing when it is only on its way', () => {
    const missing = shown(processingStep({ ...wait, m: en, textsMissing: true }));
    expect(alerts(missing)).to.deep.equal([en.flow.partMissing]);
    expect(missing.querySelector('[data-part-failed="missing"]')).to.exist;
    expect(missing.textContent).to.contain(en.processing.status(en.processing.statusNames.IN_PROCESS));
    expect(alerts(shown(processingStep({ ...wait, m: en, textsMissing: false })))).to.deep.equal([]);
  });

  it('the outcome says the page is at fault when their file is missing, with the support code still there', () => {
    const outcome = { status: 'ERROR' as const, tokenOnboarding: 'tok-123', updatedAt: new Date(0).toISOString() };
    const view = { m: es, t: null, outcome, copyNotice: null, onCopy: () => undefined };
    const missing = shown(outcomeStep({ ...view, textsMissing: true }));
    expect(alerts(missing)).to.deep.equal([es.flow.partMissing]);
    expect(missing.querySelector('[data-support-code]')?.textContent).to.equal('tok-123');
    expect(alerts(shown(outcomeStep({ ...view, textsMissing: false })))).to.deep.equal([]);
  });
});
