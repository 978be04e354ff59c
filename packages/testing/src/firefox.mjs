// The one place that says how the kit's tests start Firefox: Debian's firefox-esr (or
// FIREFOX_PATH) driven over WebDriver BiDi by puppeteer-core 24.43.x (the last line that runs on
// Node 20). Each launch gets a fresh temporary profile (puppeteer writes its own test prefs into
// it, Firefox's remote agent adds its "recommended" prefs on top); the prefs below close what is
// left open towards this machine's closed network and give a fake camera. Plain JavaScript: the
// Web Test Runner config loads it in a Node process without tsx.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';

/** The Firefox binary to drive. */
export function firefoxPath() {
  return process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';
}

/**
 * Firefox's environment. Release builds contact firefox.settings.services.mozilla.com whatever
 * the prefs say, unless MOZ_DISABLE_NONLOCAL_CONNECTIONS=1 (which also refuses every
 * non-loopback connection: what a test wants anyway).
 */
export function firefoxEnv(extra = {}) {
  return {
    ...process.env,
    MOZ_CRASHREPORTER_DISABLE: '1',
    MOZ_DISABLE_AUTO_SAFE_MODE: '1',
    MOZ_DISABLE_NONLOCAL_CONNECTIONS: '1',
    ...extra,
  };
}

/**
 * Prefs that stop background traffic which neither puppeteer's profile defaults nor Firefox's
 * remote-agent recommended prefs switch off (both are applied anyway; a few are repeated here so
 * the list stands on its own if either changes). Each one stops a request that a logging proxy
 * sees a fresh profile make; MOZ_DISABLE_NONLOCAL_CONNECTIONS (firefoxEnv) refuses any request a
 * later release adds.
 */
export const QUIET_PREFS = Object.freeze({
  // Telemetry and its ping sender (the recommended prefs only point the server at a dummy host).
  'toolkit.telemetry.enabled': false,
  'toolkit.telemetry.unified': false,
  'toolkit.telemetry.archive.enabled': false,
  'toolkit.telemetry.shutdownPingSender.enabled': false,
  'toolkit.telemetry.newProfilePing.enabled': false,
  'toolkit.telemetry.firstShutdownPing.enabled': false,
  'toolkit.telemetry.updatePing.enabled': false,
  'toolkit.telemetry.bhrPing.enabled': false,
  'datareporting.healthreport.uploadEnabled': false,
  'datareporting.policy.dataSubmissionEnabled': false,
  'datareporting.usage.uploadEnabled': false,
  'browser.ping-centre.telemetry': false,
  'browser.newtabpage.activity-stream.telemetry': false,
  'browser.newtabpage.activity-stream.feeds.telemetry': false,
  // Updates (the app, add-ons, system add-ons, search engines, GMP plugins such as OpenH264).
  'app.update.auto': false,
  'app.update.disabledForTesting': true,
  'extensions.update.enabled': false,
  'extensions.systemAddon.update.enabled': false,
  'extensions.getAddons.cache.enabled': false,
  'extensions.blocklist.enabled': false,
  'browser.search.update': false,
  'media.gmp-manager.updateEnabled': false,
  'media.gmp-manager.url': 'data:,',
  'media.gmp-gmpopenh264.enabled': false,
  'media.gmp-widevinecdm.enabled': false,
  // Safe browsing lists and lookups.
  'browser.safebrowsing.malware.enabled': false,
  'browser.safebrowsing.phishing.enabled': false,
  'browser.safebrowsing.downloads.enabled': false,
  'browser.safebrowsing.downloads.remote.enabled': false,
  'browser.safebrowsing.blockedURIs.enabled': false,
  'browser.safebrowsing.provider.google.updateURL': '',
  'browser.safebrowsing.provider.google4.updateURL': '',
  'browser.safebrowsing.provider.mozilla.updateURL': '',
  // Captive portal and connectivity checks (detectportal.firefox.com).
  'network.captive-portal-service.enabled': false,
  'network.connectivity-service.enabled': false,
  // Normandy / Shield studies, experiments (Nimbus), remote settings (blocklists, CRLite, intermediates).
  'app.normandy.enabled': false,
  'app.normandy.api_url': '',
  'app.shield.optoutstudies.enabled': false,
  'messaging-system.rsexperimentloader.enabled': false,
  // Release builds ignore this pref (and use the production server) unless the environment has
  // MOZ_DISABLE_NONLOCAL_CONNECTIONS=1, which launchFirefox sets; with both, remote settings skip
  // all remote activity.
  'services.settings.server': 'data:,#remote-settings-dummy/v1',
  'toolkit.contentRelevancy.enabled': false,
  'browser.urlbar.quicksuggest.enabled': false,
  'security.remote_settings.crlite_filters.enabled': false,
  'security.remote_settings.intermediates.enabled': false,
  // Certificate status lookups (only for https, but the tests may use https one day).
  'security.OCSP.enabled': 0,
  // New tab page content, region lookup, push, location, sponsored suggestions.
  'browser.newtabpage.enabled': false,
  'browser.newtabpage.activity-stream.feeds.system.topstories': false,
  'browser.newtabpage.activity-stream.feeds.section.topstories': false,
  'browser.newtabpage.activity-stream.feeds.topsites': false,
  'browser.newtabpage.activity-stream.default.sites': '',
  'browser.topsites.contile.enabled': false,
  'browser.region.network.url': '',
  'browser.region.update.enabled': false,
  'dom.push.connection.enabled': false,
  'geo.provider.network.url': '',
  'browser.urlbar.suggest.searches': false,
  'extensions.pocket.enabled': false,
  'browser.aboutwelcome.enabled': false,
  'browser.translations.enable': false,
  'browser.ml.enable': false,
  // Speculative traffic: DNS prefetch, link prefetch, the predictor, DNS over HTTPS.
  'network.dns.disablePrefetch': true,
  'network.prefetch-next': false,
  'network.predictor.enabled': false,
  'network.http.speculative-parallel-limit': 0,
  'network.trr.mode': 5,
});

/** Fake camera: a synthetic device (a flat green frame) and no permission prompt at all. */
export const FAKE_CAMERA_PREFS = Object.freeze({
  'media.navigator.streams.fake': true,
  'media.navigator.permission.disabled': true,
});

/**
 * Fake camera whose permission is decided per origin by the test. Firefox 153's BiDi
 * `permissions.setPermission` refuses "camera" (Bug 1609427), so puppeteer's
 * `setPermission`/`overridePermissions` cannot do it; `setCameraPermission` below writes the
 * site permission in the parent process instead. `permissions.default.camera` is the answer for
 * origins without a site permission (1 allow, 2 deny); without it getUserMedia would open a
 * prompt that nobody answers headless.
 */
export function fakeCameraPrefs(defaultState) {
  return {
    'media.navigator.streams.fake': true,
    'media.navigator.permission.disabled': false,
    'permissions.default.camera': defaultState === 'granted' ? 1 : 2,
  };
}

/** Prefs for launchFirefox's `camera` option. */
export function cameraPrefs(camera) {
  if (camera === 'auto') return FAKE_CAMERA_PREFS;
  if (camera === 'granted' || camera === 'denied') return fakeCameraPrefs(camera);
  return {};
}

/**
 * Launches headless Firefox over WebDriver BiDi with a fresh profile.
 * camera: 'auto' (fake camera, always granted, cannot be denied), 'granted' / 'denied' (fake
 * camera, that answer by default, flipped per origin with setCameraPermission), or undefined
 * (no fake device: getUserMedia gives NotFoundError here).
 */
export async function launchFirefox({
  camera,
  prefs = {},
  headless = true,
  timeout = 60_000,
  systemAccess = camera === 'granted' || camera === 'denied',
} = {}) {
  const profile = await mkdtemp(join(tmpdir(), 'okit-firefox-'));
  const browser = await puppeteer.launch({
    browser: 'firefox',
    protocol: 'webDriverBiDi',
    executablePath: firefoxPath(),
    headless,
    timeout,
    userDataDir: profile,
    extraPrefsFirefox: { ...QUIET_PREFS, ...cameraPrefs(camera), ...prefs },
    // Headless Firefox's default window is 1366x768; setViewport changes the page's viewport.
    defaultViewport: null,
    args: systemAccess ? ['-remote-allow-system-access'] : [],
    env: firefoxEnv(),
  });
  const close = browser.close.bind(browser);
  browser.close = async () => {
    try {
      await close();
    } finally {
      await rm(profile, { recursive: true, force: true });
    }
  };
  return browser;
}

/**
 * Grants or denies the camera to `origin` at run time (state: 'granted' | 'denied' | 'prompt').
 * Needs a browser launched with `systemAccess` (the `-remote-allow-system-access` flag, which
 * lets BiDi evaluate in the parent process); `camera: 'granted' | 'denied'` launch that way.
 */
export async function setCameraPermission(browser, origin, state) {
  const connection = browser.connection; // puppeteer's BidiConnection (not public API, stable in 24.x)
  const { contexts } = (await connection.send('browsingContext.getTree', { 'moz:scope': 'chrome' })).result;
  const action = { granted: 'ALLOW_ACTION', denied: 'DENY_ACTION', prompt: 'UNKNOWN_ACTION' }[state];
  if (!action) throw new Error(`unknown permission state ${state}`);
  const { result } = await connection.send('script.evaluate', {
    target: { context: contexts[0].context },
    awaitPromise: false,
    expression: `(() => {
      const principal = Services.scriptSecurityManager.createContentPrincipalFromOrigin(${JSON.stringify(origin)});
      Services.perms.addFromPrincipal(principal, 'camera', Services.perms.${action});
      return Services.perms.testPermissionFromPrincipal(principal, 'camera');
    })()`,
  });
  if (result.type !== 'success') throw new Error(`setCameraPermission failed: ${JSON.stringify(result)}`);
}
