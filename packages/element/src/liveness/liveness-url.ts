/**
 * Where the liveness worker is loaded from: `onboarding-flow.liveness-worker.js` beside the module
 * that starts it (the build emits it there with the face model's files; the test server serves
 * them at the same place). Same-origin, never a `blob:` or a CDN, so `worker-src 'self'` covers it.
 */
// A literal: bundlers only recognise `new URL('<literal>', import.meta.url)`.
const LIVENESS_WORKER_URL = new URL('./onboarding-flow.liveness-worker.js', import.meta.url).href;

export function defaultLivenessWorkerURL(): string {
  return LIVENESS_WORKER_URL;
}
