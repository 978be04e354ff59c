/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { expect } from '@open-wc/testing';
import { onlyIn } from '@onboarding-kit/testing/engine';
import type { OnboardingFlow } from './onboarding-flow.js';
import { CPF, chooseType, companionNamespace, passConsent, passCpf, pickFile, preview, root, waitFor, photoFor } from './test-helpers.js';

/** The policy README.md tells integrators to use (plus their companion's origin in connect-src). */
const POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; connect-src 'self'; worker-src 'self' blob:; media-src 'self' blob:";

describe('<onboarding-flow> under a strict Content Security Policy', () => {
  // The end-to-end tests load the element under the demo's header CSP in every engine.
  onlyIn(
    ['chromium'],
    "Firefox never runs the module script of a srcdoc iframe under a meta CSP script-src 'self', and WebKit runs it too late for this test: a srcdoc matter, not the element's",
  )('loads, styles itself and processes a photo with no eval, no inline script or style', async function () {
    this.timeout(60_000);
    const frame = document.createElement('iframe');
    frame.style.width = '800px';
    frame.style.height = '900px';
    const violations: string[] = [];
    frame.srcdoc = `<!doctype html><html><head>
      <meta http-equiv="Content-Security-Policy" content="${POLICY}">
      <script type="module" src="/packages/element/src/index.ts"></script>
      </head><body></body></html>`;
    const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
    document.body.append(frame);
    try {
      await loaded;
      const win = frame.contentWindow! as Window & typeof globalThis;
      win.document.addEventListener('securitypolicyviolation', (e) => violations.push(`${e.violatedDirective} ${e.blockedURI}`));
      await waitFor(() => !!win.customElements.get('onboarding-flow'), 'the element never loaded under the CSP');
      // The policy is really in force: eval is refused in this frame.
      expect(() => win.eval('1')).to.throw();
      await waitFor(() => violations.length === 1, 'the eval violation was not reported');
      violations.length = 0;
      const el = win.document.createElement('onboarding-flow') as OnboardingFlow;
      el.endpoint = `/test-companion/${companionNamespace()}`;
      win.document.body.append(el);
      await el.updateComplete;
      // Styles arrived through adoptedStyleSheets, which style-src 'self' allows.
      const primary = root(el).querySelector<HTMLElement>('[part~=button-primary]')!;
      expect(win.getComputedStyle(primary).minHeight).to.equal('44px');
      await passConsent(el);
      await passCpf(el, CPF.approved);
      await chooseType(el, 'CNH');
      await pickFile(el, await photoFor(el));
      expect(preview(el), root(el).textContent!).to.exist;
      expect(violations).to.deep.equal([]);
    } finally {
      frame.remove();
    }
  });
});
