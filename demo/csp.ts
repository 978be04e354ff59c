/**
 * The Content-Security-Policy every demo page is served with: the exact header value, in one
 * place (demo-routes.ts sends it, the tests and demo/README.md quote it). Strict on purpose: the
 * demo is the proof that `<onboarding-flow>` and the React and Vue examples run on a page that
 * allows no inline script or style and no eval (WebAssembly aside). Why each non-'self' source is there:
 * - img-src blob:   photo previews are object URLs.
 * - img-src data:   only the pages' empty favicon (`data:,`), which keeps browsers from asking for
 *                   /favicon.ico; the element itself needs no data: image in any engine.
 * - worker-src 'self': the element's workers are files beside its script (no blob: worker).
 * - script-src 'wasm-unsafe-eval': the liveness worker compiles TensorFlow.js's WebAssembly (served
 *                   beside the script); it allows WebAssembly only, never eval of text.
 * 'report-sample' only makes violation reports carry the first characters of what was blocked.
 * Nothing may frame the page, and nothing is loaded from another origin.
 */
export const DEMO_CSP = [
  "default-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval' 'report-sample'",
  "style-src 'self' 'report-sample'",
  "img-src 'self' blob: data:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "worker-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');
