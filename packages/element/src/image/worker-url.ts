/**
 * Where the image worker is loaded from: `onboarding-flow.image-worker.js` beside this module's
 * bundle (the build emits it there; the test server serves it at the same place). Same-origin
 * as the pipeline, never a `blob:` or a CDN, so `worker-src 'self'` is all a page's policy needs.
 * This module only ever runs inside the lazily loaded pipeline, which is a real ES module in
 * every build, so `import.meta.url` is that module's own URL.
 */
// A literal: bundlers only recognise `new URL('<literal>', import.meta.url)`.
const WORKER_URL = new URL('./onboarding-flow.image-worker.js', import.meta.url).href;

export function defaultImageWorkerURL(): string {
  return WORKER_URL;
}
