/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import {
  CPF,
  chooseType,
  cleanupListeners,
  click,
  mount,
  passConsent,
  passCpf,
  pickFile,
  preview,
  photoFor,
  waitForStep,
} from './test-helpers.js';

afterEach(() => cleanupListeners());

interface NetworkLog {
  external: string[];
  all: string[];
}

/**
 * Every resource the page fetches from now on, as Resource Timing reports it: in every engine,
 * served from a cache or not (the runner's network record is Chromium's and Firefox's only, and
 * Firefox's missed a module load served from its memory cache).
 */
function watchResources(): { names(): string[]; stop(): void } {
  const seen: string[] = [];
  const observer = new PerformanceObserver((list) => seen.push(...list.getEntries().map((entry) => entry.name)));
  observer.observe({ type: 'resource' });
  return {
    names: () => {
      seen.push(...observer.takeRecords().map((entry) => entry.name));
      return [...seen];
    },
    stop: () => observer.disconnect(),
  };
}

/** The runner's record of requests off this machine (null in WebKit, whose driver shows no network). */
async function externalRequests(): Promise<string[] | null> {
  const log = await executeServerCommand<NetworkLog | 'unsupported', { clear: boolean }>('network-log', { clear: true });
  return log === 'unsupported' ? null : log.external;
}

describe('<onboarding-flow> first load', () => {
  it('loads the image pipeline only on the photo steps, and the photo is prepared in its image worker', async function () {
    this.timeout(60_000);
    const resources = watchResources();
    try {
      const { el, events } = await mount();
      await passConsent(el);
      await passCpf(el, CPF.approved);
      const externalBefore = await externalRequests();
      // Bar the canvas helpers (image/canvas.ts), which the photo steps' own module shares for the selfie's keyframes.
      const pipeline = (url: string) => url.includes('image-worker') || (url.includes('/image/') && !url.endsWith('/image/canvas.ts'));
      expect(resources.names().filter(pipeline)).to.deep.equal([]);
      // From here the capture step may fetch it ahead, while the person reads the step.
      await chooseType(el, 'CNH');
      const before = resources.names();

      await pickFile(el, await photoFor(el));
      expect(preview(el)).to.exist;
      const after = resources.names().slice(before.length);
      expect(
        resources.names().filter((url) => url.includes('/image/pipeline')),
        after.join('\n'),
      ).to.have.length.greaterThan(0);
      // The worker's own script is its own fetch (not always on the page's timeline): the capture
      // event says that it answered.
      const captures = events.filter((e) => e.type === 'onboarding-capture').map((e) => (e.detail as { processedIn: string }).processedIn);
      expect(captures).to.deep.equal(['worker']);
      const externalAfter = await externalRequests();
      if (externalBefore && externalAfter) expect([...externalBefore, ...externalAfter]).to.deep.equal([]);
    } finally {
      resources.stop();
    }
  });

  // That the worker starts during the document step is script-tag.test.ts's (the page's resource timing lists no worker script).
  it("judges the selfie's face in the liveness worker, never loading the detector on the page", async function () {
    this.timeout(60_000);
    const resources = watchResources();
    try {
      const { el, events } = await mount({ documentTypes: 'PASSPORT' });
      await passConsent(el);
      await passCpf(el, CPF.approved);
      await chooseType(el, 'PASSPORT');
      await waitForStep(el, 'document-front');
      await pickFile(el, await photoFor(el));
      expect(preview(el)).to.exist;
      const face = () => resources.names().filter((url) => url.includes('/face/face-detector'));

      await click(el, 'Usar esta foto');
      await waitForStep(el, 'selfie');
      await pickFile(el, await photoFor(el));
      expect(preview(el)).to.exist;
      expect(face(), 'the page never loads the face detector').to.deep.equal([]);
      expect(events.filter((e) => e.type === 'onboarding-error')).to.deep.equal([]);
    } finally {
      resources.stop();
    }
  });
});
