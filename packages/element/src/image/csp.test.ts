/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { currentEngine } from '@onboarding-kit/testing/engine';
import { expect } from '@open-wc/testing';
import { canvasBlob, cardCanvas } from '@onboarding-kit/testing/pixels';
import type { OnboardingFlow } from '../onboarding-flow/onboarding-flow.js';
import {
  CPF,
  chooseType,
  click,
  companionNamespace,
  passConsent,
  passCpf,
  pickFile,
  preview,
  root,
  waitFor,
  waitForStep,
  photoFor,
} from '../onboarding-flow/test-helpers.js';

/**
 * The policy README.md prints (the companion same-origin here; minus `frame-ancestors 'none'`,
 * which would stop the test from framing the page): the image worker needs only
 * `worker-src 'self'` (no `blob:`), previews only `img-src blob:`, and nothing uses a `data:`
 * URL in any engine. The same plus `data:` (the kit's earlier advice) must work too.
 */
const README_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; media-src 'self' blob: mediastream:; connect-src 'self'; worker-src 'self'; base-uri 'none'; form-action 'none'";
const WITH_DATA = README_POLICY.replace("img-src 'self' blob:", "img-src 'self' blob: data:");

async function underPolicy(policy: string): Promise<void> {
  const frame = document.createElement('iframe');
  frame.style.width = '800px';
  frame.style.height = '900px';
  frame.src = `/__csp-page?policy=${encodeURIComponent(policy)}`;
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  document.body.append(frame);
  try {
    await loaded;
    const win = frame.contentWindow! as Window & typeof globalThis;
    const violations: string[] = [];
    win.document.addEventListener('securitypolicyviolation', (e) => violations.push(`${e.violatedDirective} ${e.blockedURI}`));
    await waitFor(() => !!win.customElements.get('onboarding-flow'), 'the element never loaded under the CSP');
    // The policy is really in force: a blob: worker is refused.
    const blobWorker = (() => {
      try {
        const w = new win.Worker(win.URL.createObjectURL(new win.Blob([''], { type: 'text/javascript' })));
        return new Promise<boolean>((resolve) => {
          w.onerror = () => resolve(false);
          setTimeout(() => resolve(true), 1500);
        });
      } catch {
        return Promise.resolve(false);
      }
    })();
    expect(await blobWorker, 'a blob: worker must be refused').to.equal(false);
    // The probe's own report (WebKit delivers it late): wait for it, then start counting.
    await waitFor(() => violations.some((v) => v.startsWith('worker-src')), 'the blob: worker was not reported as a violation');
    violations.length = 0;

    const el = win.document.createElement('onboarding-flow') as OnboardingFlow;
    el.endpoint = `/test-companion/${companionNamespace()}`;
    el.setAttribute('locale', 'en');
    win.document.body.append(el);
    await el.updateComplete;
    const captures: { processedIn?: string; processedBy?: string; width?: number }[] = [];
    el.addEventListener('onboarding-capture', (e) => captures.push((e as CustomEvent).detail));
    await passConsent(el);
    await passCpf(el, CPF.approved);
    await chooseType(el, 'CNH');
    // A camera-sized picture, then one over the long-edge cap (resized in the worker).
    await pickFile(el, await photoFor(el));
    expect(preview(el), root(el).textContent!).to.exist;
    await waitFor(() => preview(el)!.complete && preview(el)!.naturalWidth === 1280, 'the preview never showed');
    expect(captures.map((c) => c.processedIn)).to.deep.equal(['worker']);
    await click(el, 'Use this photo');
    await waitForStep(el, 'document-back');
    // A byte cap the large picture's first JPEG is over, so that the compression library is asked.
    el.maxImageBytes = 40 * 1024;
    const large = new win.File([await canvasBlob(cardCanvas(2400, 1350))], 'large.png', { type: 'image/png' });
    await pickFile(el, large);
    await waitFor(
      () => captures.length === 2 && preview(el)?.complete === true && preview(el)!.naturalWidth === captures[1]!.width,
      "the large photo's preview never showed",
    );
    expect(captures.map((c) => c.processedIn)).to.deep.equal(['worker', 'worker']);
    expect(captures[1]!.width).to.be.within(1000, 2000);
    // The camera-sized one: one own encode. Under this policy too (worker-src 'self', no blob:), the
    // library runs inside the image worker where it can, for the JPEG over the cap.
    expect(captures.map((c) => c.processedBy)).to.deep.equal(['own', currentEngine() === 'webkit' ? 'own' : 'library']);
    expect(violations).to.deep.equal([]);
  } finally {
    frame.remove();
  }
}

describe("the image pipeline under the README's Content-Security-Policy, every engine", () => {
  it('works under the printed policy: no data: in img-src, no blob: in worker-src', async function () {
    this.timeout(90_000);
    await underPolicy(README_POLICY);
  });

  it('works the same with data: added to img-src', async function () {
    this.timeout(90_000);
    await underPolicy(WITH_DATA);
  });
});
