/**
 * Browser side: which engine a test runs in, and tests that can only mean something in some
 * engines. A test left out of an engine is registered as skipped with the engine and the reason
 * in its title, so the run's report says what did not run where and why; never a silent return.
 */
/// <reference types="@onboarding-kit/testing/mocha-globals" />

/** `it` with `.skip` (the shared mocha-globals declare plain `it` only). */
const mochaIt = it as MochaTestFn & { skip: MochaTestFn };

export type Engine = 'chromium' | 'firefox' | 'webkit';

/**
 * From the user agent: Chromium says Chrome/ (HeadlessChrome/ when headless), Firefox says
 * Firefox/, WebKitGTK says neither (it poses as Safari).
 */
export function currentEngine(userAgent: string = navigator.userAgent): Engine {
  if (/Firefox\//.test(userAgent)) return 'firefox';
  if (/Chrom(?:e|ium)\//.test(userAgent)) return 'chromium';
  return 'webkit';
}

type TestBody = (this: MochaContext) => void | Promise<unknown>;

/**
 * `it` in the engines listed; elsewhere `it.skip` with "(not in <engine>: <reason>)" appended.
 * Example: `onlyIn(['chromium'], 'only Chromium's fake camera shows the card picture')('…', async () => …)`.
 */
export function onlyIn(engines: readonly Engine[], reason: string): (title: string, body: TestBody) => void {
  const engine = currentEngine();
  if (engines.includes(engine)) return (title, body) => mochaIt(title, body);
  return (title, body) => mochaIt.skip(`${title} (not in ${engine}: ${reason})`, body);
}

/** The opposite of onlyIn: skipped (with the reason) in the engines listed. */
export function skipIn(engines: readonly Engine[], reason: string): (title: string, body: TestBody) => void {
  return onlyIn(
    (['chromium', 'firefox', 'webkit'] as const).filter((e) => !engines.includes(e)),
    reason,
  );
}

/** Why a test is left out of an engine, in one place so the same cause reads the same everywhere. */
export const NOT_IN = {
  /** Only Chromium's fake camera loops a chosen picture (a Y4M of the card). */
  cardCamera:
    "only Chromium's fake camera can show the card picture (Firefox's is a flat green frame, WebKit's a test pattern, both rightly refused as photos)",
  /** WebKit has no way to refuse getUserMedia to the test page. */
  cameraDenial:
    'WebKit cannot deny the camera to a test page: WebKitWebDriver has no permissions endpoint and MiniBrowser grants every capture in automation',
  /** Commands of the test runner that drive Playwright (keyboard, media emulation, clipboard grants). */
  playwrightCommands:
    "the runner's command this test uses (keyboard, media emulation or clipboard grant) is implemented for Playwright's Chromium only",
  /** The runner's keyboard (`sendKeys`) drives Playwright and puppeteer pages only. */
  keyboard: "the runner's keyboard command (sendKeys) has no WebKit launcher to drive",
  /** The runner's network record (`network-log`). */
  networkRecord: 'WebKitWebDriver shows no network traffic, so there is no network record to check',
  /** WebKitGTK's 2D canvas ignores `ctx.filter`, which the test uses to make a blurred or darkened picture. */
  canvasFilter: "WebKitGTK's canvas ignores ctx.filter, which this test uses to blur or darken the picture",
} as const;
