// The one place that says how the kit's tests and benchmarks start Chromium (TOOLCHAIN.md):
// Debian's /usr/bin/chromium unless CHROME_PATH names another Chrome, and the flags that keep it
// off this machine's closed network. Web Test Runner, the node-side browser tests, the
// end-to-end tests and the benchmarks all read it.

/** The Chromium (or Chrome) binary to drive. */
export function chromiumPath() {
  return process.env.CHROME_PATH || '/usr/bin/chromium';
}

/** Launch flags; headless is set by the launcher's own option. */
export const CHROMIUM_ARGS = Object.freeze([
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]);

/** Flags for a fake camera looping `y4mPath` (no fake permission UI: permission is per context). */
export function fakeCameraArgs(y4mPath) {
  return ['--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${y4mPath}`];
}
