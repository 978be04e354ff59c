/// <reference types="@onboarding-kit/testing/mocha-globals" />
/**
 * prefers-reduced-motion: with it, nothing in the flow's shadow root or the capture view's
 * (elements and their ::before/::after, the dialog's ::backdrop) transitions or animates; without
 * it, the motion that exists does run, so the check can fail.
 */
import { NOT_IN, onlyIn } from '@onboarding-kit/testing/engine';
import { expect } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import type { OnboardingFlow } from './onboarding-flow.js';
import {
  CPF,
  captureView,
  chooseType,
  cleanupListeners,
  click,
  controlDouble,
  mount,
  openCamera,
  passConsent,
  passIntro,
  passCpf,
  photoFor,
  pickFile,
  root,
  waitForStep,
} from './test-helpers.js';

afterEach(async () => {
  cleanupListeners();
  await emulateMedia({ reducedMotion: 'no-preference' });
});

const seconds = (list: string): number[] => list.split(',').map((d) => parseFloat(d) * (d.trim().endsWith('ms') ? 0.001 : 1));

function name(node: Element, pseudo: string): string {
  const cls = node.getAttribute('class');
  return `${node.tagName.toLowerCase()}${cls ? `.${cls.trim().split(/\s+/).join('.')}` : ''}${pseudo}`;
}

/** What moves on screen now: every element of the flow's shadow roots with a running transition or animation. */
function motion(el: OnboardingFlow): string[] {
  const moving: string[] = [];
  const roots: ShadowRoot[] = [root(el)];
  const view = captureView(el);
  if (view?.shadowRoot) roots.push(view.shadowRoot);
  for (const r of roots) {
    for (const node of r.querySelectorAll('*')) {
      for (const pseudo of ['', '::before', '::after', ...(node.tagName === 'DIALOG' ? ['::backdrop'] : [])]) {
        const s = getComputedStyle(node, pseudo || null);
        if (s.transitionProperty !== 'none' && seconds(s.transitionDuration).some((d) => d > 0))
          moving.push(`${name(node, pseudo)}: transition ${s.transitionProperty} ${s.transitionDuration}`);
        if (s.animationName !== 'none' && seconds(s.animationDuration).some((d) => d > 0))
          moving.push(`${name(node, pseudo)}: animation ${s.animationName} ${s.animationDuration}`);
      }
    }
  }
  return moving;
}

/** The motion in this state without the preference, and with it. */
async function both(el: OnboardingFlow): Promise<{ normal: string[]; reduced: string[] }> {
  await emulateMedia({ reducedMotion: 'no-preference' });
  const normal = motion(el);
  await emulateMedia({ reducedMotion: 'reduce' });
  const reduced = motion(el);
  await emulateMedia({ reducedMotion: 'no-preference' });
  return { normal, reduced };
}

describe('<onboarding-flow> prefers-reduced-motion', () => {
  onlyIn(['chromium'], NOT_IN.playwrightCommands)(
    'nothing moves in the flow or the capture view for people who ask for less motion',
    async function () {
      this.timeout(120_000);
      const { el, ns } = await mount();
      const states: Record<string, { normal: string[]; reduced: string[] }> = {};
      states.intro = await both(el);
      await passIntro(el);
      states.consent = await both(el);
      await passConsent(el);
      await passCpf(el, CPF.manual);
      await chooseType(el, 'CNH');
      states['document-front'] = await both(el);
      await openCamera(el);
      await captureView(el)!.updateComplete;
      states['capture view'] = await both(el);
      captureView(el)!.shadowRoot!.querySelector<HTMLButtonElement>('[part~=capture-close]')!.click();
      for (const step of ['document-front', 'document-back', 'selfie']) {
        await waitForStep(el, step);
        await pickFile(el, await photoFor(el));
        await click(el, 'Usar esta foto');
      }
      await waitForStep(el, 'review');
      states.review = await both(el);
      await controlDouble(ns, { holdUploads: true });
      await click(el, 'Enviar');
      await waitForStep(el, 'upload');
      states.upload = await both(el);
      await click(el, 'Cancelar envio');
      await waitForStep(el, 'review');
      await controlDouble(ns, { holdUploads: false });
      await click(el, 'Enviar');
      // The manual-review identity keeps the waiting screen (and its spinner) up.
      await waitForStep(el, 'processing');
      expect(root(el).querySelector('.spinner')).to.exist;
      states.processing = await both(el);

      for (const [state, { reduced }] of Object.entries(states)) expect(reduced, `${state}: moves with reduced motion`).to.deep.equal([]);
      // The motion there is, without the preference: the check above sees it when it is there.
      expect(
        states['capture view']!.normal.some((m) => m.startsWith('div.cutout.card: transition border-color')),
        states['capture view']!.normal.join('\n'),
      ).to.equal(true);
      expect(states.upload!.normal).to.include('div.progress-bar: transition width 0.15s');
      expect(states.processing!.normal).to.include('div.spinner: animation spin 1s');
    },
  );
});
