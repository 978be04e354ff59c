/**
 * The Content-Security-Policy every demo page is served with: the exact header value, in one
 * place (demo-routes.ts sends it, the tests and demo/README.md quote it). Strict on purpose: the
 * demo is the proof that `<onboarding-flow>` and the React and Vue examples run on a page that
 * allows no inline script or style and no eval. Why each non-'self' source is there:
 * - img-src blob: data:  photo previews are object URLs; Lit/the browser may use data: images.
 * - worker-src blob:     browser-image-compression runs in a worker built from a blob: URL (it
 *                        then importScripts its self-hosted copy, which 'self' covers).
 * 'report-sample' only makes violation reports carry the first characters of what was blocked.
 * Nothing may frame the page, and nothing is loaded from another origin.
 */
export const DEMO_CSP = [
  "default-src 'none'",
  "script-src 'self' 'report-sample'",
  "style-src 'self' 'report-sample'",
  "img-src 'self' blob: data:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');
