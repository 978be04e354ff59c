/**
 * Where the compression worker loads browser-image-compression from. Without it the library
 * fetches itself from a public CDN (and silently falls back to the main thread when that fails),
 * so the kit always points it at its own copy: the build copies the UMD file
 * `browser-image-compression/dist/browser-image-compression.js` next to this module's bundle
 * as `browser-image-compression.js`; the test server serves it at the same place.
 *
 * Absolute, because the library's worker is a blob: URL where relative URLs do not resolve.
 * This module only ever runs inside the lazily loaded pipeline, which is a real ES module in
 * every build (the script-tag forms load `onboarding-flow.pipeline.js` beside themselves), so
 * `import.meta.url` is that module's own URL.
 */
const LIB_URL = new URL('./browser-image-compression.js', import.meta.url).href;

export function defaultCompressionLibURL(): string {
  return LIB_URL;
}
