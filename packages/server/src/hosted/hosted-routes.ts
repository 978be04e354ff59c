/**
 * The hosted capture page and the hand-off pages (docs/hosted-page.md), served by the companion
 * beside its API, outside `/v1`:
 *
 * - `GET /capture/<token>`: a session's `url`; the flow in the session's locale, with the
 *   integrator's brand, once the page's script traded the token for a page secret (the token is
 *   then dead: a second GET is a 410 page); at the outcome, back to `returnUrl`.
 * - `GET /h/<token>`: the hand-off link a phone opens from the QR code. The GET claims nothing
 *   (a link scanner or a prefetch would burn the link): the page's script POSTs the claim.
 * - `GET /h`: the short code, typed; `GET /capture`: the capture page of a device after its claim.
 * - `GET /capture/assets/<hash>/…` and `GET /capture/element/<hash>/…`: the pages' files and the
 *   element's, from memory, immutable.
 *
 * Every page answers under {@link HOSTED_CSP}, `no-store` and `Referrer-Policy: no-referrer` (a
 * token is in the path). An unknown token is a 404 page, a used, expired or cancelled session a
 * 410 page; these and any failure leave through the companion's one `onError`, which renders them
 * as a page here (never a stack trace, never the token).
 */
import { Hono, type Context } from 'hono';
import { hashSecret } from '../auth/access-key.js';
import { CompanionError } from '../http/companion-error.js';
import { DomainError } from '../errors/domain-error.js';
import type { CompanionEnv } from '../http/env.js';
import type { Logger } from '../logger.js';
import type { SessionService } from '../sessions/session-service.js';
import { captureExchanged } from '../sessions/page-secret-rules.js';
import { effectiveStatus } from '../sessions/session-view.js';
import type { SessionRecord } from '../store/backend-state.js';
import { requestHeader } from '../transport/index.js';
import type { Brand } from './brand.js';
import { BuildMissing, type HostedAssets } from './hosted-assets.js';
import { capturePage, claimPage, codePage, devicePage, messagePage, type PageContext } from './page-html.js';
import { PAGE_TEXT, localeFromAcceptLanguage, pageLocale, type PageLocale } from './page-text.js';

/**
 * The hosted pages' Content-Security-Policy, exact. Scripts and styles only from the companion
 * itself, by path (no inline script or style: the element's styles are constructed stylesheets);
 * images of its own (the logo, `data:` for the empty favicon, `blob:` for photo previews); the
 * camera's stream and previews as `media-src blob: mediastream:`; the image worker from beside
 * the element's files; requests to the companion only; never framed.
 */
export const HOSTED_CSP = [
  "default-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  'media-src blob: mediastream:',
  "connect-src 'self'",
  "worker-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/** An SVG logo opened on its own runs nothing, loads nothing. */
const LOGO_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

const IMMUTABLE = 'public, max-age=31536000, immutable';

export interface HostedRouteDeps {
  sessions: SessionService;
  brand: Brand;
  assets: HostedAssets;
  logger: Logger;
}

/** The security headers of every hosted page. */
function pageHeaders(c: Context): void {
  c.header('Content-Security-Policy', HOSTED_CSP);
  c.header('Referrer-Policy', 'no-referrer');
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Cache-Control', 'no-store');
  c.header('Permissions-Policy', 'camera=(self), microphone=(), geolocation=(), payment=(), usb=()');
}

/** The path the companion is mounted at, from the request's path and the route's own tail. */
function mountBase(c: Context, tail: RegExp): string {
  return c.req.path.replace(tail, '');
}

const notFoundPage = () => new DomainError('not_found', 'No such page.');

/** What every page route needs beyond its deps: the element's version, and errors rendered as pages. */
interface PageKit {
  elementVersion: () => string;
  errorsAsPages: (c: Context<CompanionEnv>, base: string, locale: PageLocale, session?: SessionRecord) => void;
}

export function hostedRoutes(deps: HostedRouteDeps): Hono<CompanionEnv> {
  const app = new Hono<CompanionEnv>();
  const kit: PageKit = { elementVersion: elementVersionOrUnavailable(deps), errorsAsPages: errorPages(deps) };
  mountFiles(app, deps, kit);
  mountCapturePage(app, deps, kit);
  mountDevicePages(app, deps, kit);
  return app;
}

/** The element's version once both scripts are built, or a 503 page (logged once, with what to do). */
function elementVersionOrUnavailable({ assets, logger }: HostedRouteDeps): () => string {
  let reportedMissing = false;
  return () => {
    try {
      return assets.scriptsVersion();
    } catch (error) {
      if (!(error instanceof BuildMissing)) throw error;
      if (!reportedMissing) logger.error(`hosted page unavailable: ${error.message}`);
      reportedMissing = true;
      throw new DomainError('page_unavailable', undefined, { retryAfterS: 60 });
    }
  };
}

/** Renders errors of these routes as pages (through the companion's one onError), in `locale`. */
function errorPages({ brand, assets }: HostedRouteDeps): PageKit['errorsAsPages'] {
  return (c, base, locale, session) => {
    c.set('errorPage', (error: CompanionError) => {
      const p: PageContext = { base, locale, brand, assets };
      for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
      pageHeaders(c);
      return c.html(messagePage(p, errorMessage(error, PAGE_TEXT[locale], session)), error.status);
    });
  };
}

/** The heading and body an error page shows. */
function errorMessage(error: CompanionError, t: (typeof PAGE_TEXT)[PageLocale], session: SessionRecord | undefined) {
  return error.status === 404
    ? { heading: t.notFoundHeading, body: t.notFoundBody }
    : error.code === 'session_expired'
      ? { heading: t.expiredHeading, body: t.expiredBody }
      : error.code === 'session_used'
        ? { heading: t.usedHeading, body: t.usedBody, ...backLink(session, t.backToService) }
        : error.code === 'session_cancelled'
          ? { heading: t.cancelledHeading, body: t.cancelledBody }
          : { heading: t.unavailableHeading, body: t.unavailableBody, ...(error.status === 500 && { detail: error.message }) };
}

/** The pages' files and the element's, immutable. */
function mountFiles(app: Hono<CompanionEnv>, { assets }: HostedRouteDeps, { errorsAsPages }: PageKit): void {
  app.get('/capture/assets/:version/:file', (c) => {
    const asset = c.req.param('version') === assets.page.version ? assets.page.files.get(c.req.param('file')) : undefined;
    if (!asset) throw notFoundPage();
    c.header('Content-Type', asset.type);
    c.header('Cache-Control', IMMUTABLE);
    c.header('X-Content-Type-Options', 'nosniff');
    if (asset.type === 'image/svg+xml') c.header('Content-Security-Policy', LOGO_CSP);
    return c.body(asset.bytes.slice().buffer, 200);
  });

  app.get('/capture/element/:version/:file', (c) => {
    errorsAsPages(c, mountBase(c, /\/capture\/element\/[^/]*\/[^/]*$/), localeFromAcceptLanguage(requestHeader(c, 'accept-language')));
    const element = assets.element();
    const asset = c.req.param('version') === element.version ? element.files.get(c.req.param('file')) : undefined;
    if (!asset) throw notFoundPage();
    c.header('Content-Type', asset.type);
    c.header('Cache-Control', IMMUTABLE);
    c.header('X-Content-Type-Options', 'nosniff');
    return c.body(asset.bytes.slice().buffer, 200);
  });
}

/** A session's `url`: the flow bound to its capture token, in its locale. */
function mountCapturePage(
  app: Hono<CompanionEnv>,
  { sessions, brand, assets }: HostedRouteDeps,
  { elementVersion, errorsAsPages }: PageKit,
): void {
  app.get('/capture/:token', async (c) => {
    const base = mountBase(c, /\/capture\/[^/]*$/);
    errorsAsPages(c, base, localeFromAcceptLanguage(requestHeader(c, 'accept-language')));
    const token = c.req.param('token');
    const session = /^[A-Za-z0-9_-]{16,128}$/.test(token) ? await sessions.store.findSessionBySecret('capture', hashSecret(token)) : null;
    if (!session) throw notFoundPage();
    const locale = pageLocale(session.locale);
    errorsAsPages(c, base, locale, session);
    const status: string = effectiveStatus(session, sessions.now());
    if (status === 'expired') throw new DomainError('session_expired');
    if (status === 'cancelled') throw new DomainError('session_cancelled');
    if (status !== 'open' || session.tokenOnboarding) throw new DomainError('session_used', undefined, { status: 410 });
    const p: PageContext = { base, locale, brand, assets };
    // A copy of the link from a history, once the page that opened it holds its secret.
    if (captureExchanged(session, token)) {
      pageHeaders(c);
      const t = PAGE_TEXT[locale];
      return c.html(messagePage(p, { heading: t.openedHeading, body: t.openedBody }), 410);
    }
    const version = elementVersion();
    pageHeaders(c);
    return c.html(
      capturePage(p, { elementVersion: version, sessionId: session.id, ...(session.returnUrl && { returnUrl: session.returnUrl }) }),
      200,
    );
  });
}

/** The pages of a device the flow is handed off to: the claimed capture page, the typed code, the QR code's link. */
function mountDevicePages(app: Hono<CompanionEnv>, { brand, assets }: HostedRouteDeps, { elementVersion, errorsAsPages }: PageKit): void {
  const page = (tail: RegExp, render: typeof devicePage) => (c: Context<CompanionEnv>) => {
    const base = mountBase(c, tail);
    const locale = localeFromAcceptLanguage(requestHeader(c, 'accept-language'));
    errorsAsPages(c, base, locale);
    const version = elementVersion();
    pageHeaders(c);
    return c.html(render({ base, locale, brand, assets }, version), 200);
  };
  app.get('/capture', page(/\/capture$/, devicePage));
  app.get('/h', page(/\/h$/, codePage));
  // Never a claim here: the page's script claims once it is shown to someone.
  app.get('/h/:token', page(/\/h\/[^/]*$/, claimPage));
}

/** A used session's way back to the integrator, when it gave one: `returnUrl` with `session` and the outcome so far. */
function backLink(session: SessionRecord | undefined, text: string): { back?: { href: string; text: string } } {
  if (!session?.returnUrl) return {};
  try {
    const url = new URL(session.returnUrl);
    url.searchParams.set('session', session.id);
    url.searchParams.set('status', session.outcome?.status ?? 'IN_PROCESS');
    return { back: { href: url.href, text } };
  } catch {
    return {};
  }
}
