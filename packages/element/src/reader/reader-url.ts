/**
 * Where the document reader's worker is loaded from: `onboarding-flow.reader-worker.js` beside
 * the module that starts it (the build emits it there; the test server serves it at the same
 * place). Same-origin, never a `blob:` or a CDN, so `worker-src 'self'` covers it. The module
 * holding this line is always a real ES module (the photo steps' file or an npm chunk), so
 * `import.meta.url` is its own URL.
 */
// A literal: bundlers only recognise `new URL('<literal>', import.meta.url)`.
const READER_WORKER_URL = new URL('./onboarding-flow.reader-worker.js', import.meta.url).href;

export function defaultReaderWorkerURL(): string {
  return READER_WORKER_URL;
}
