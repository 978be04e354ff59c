/**
 * The hosted demo as a Hono sub-app: the pages that `npm run build` emitted (`/`, `/react`,
 * `/vue`), their hashed assets, and the element's own bundles at `/element/*` (the files a
 * script tag on an integrator's page would load). Every answer carries the demo's strict CSP.
 *
 * Files are read from disk on each request (no cache in memory), so a rebuild is picked up
 * without a restart; nothing outside the two directories can be reached (no `..`, no dotfiles,
 * only known file types).
 */
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono, type Context } from 'hono';
import { DEMO_CSP } from './csp.js';

export interface DemoRoutesOptions {
  /** The demo's build output (`vite build`): index.html, react/index.html, vue/index.html, assets/. */
  distDir: string;
  /** Where the element's bundles are; default `<distDir>/element` (the demo build copies them there). */
  elementDir?: string;
  /**
   * Renders a page for one visit (`npm start` puts a new session in it). With it, pages are
   * answered `no-store` and never 304: each answer is that visit's own.
   */
  renderPage?: (html: string, visit: { path: string; query: URLSearchParams }) => Promise<string>;
}

/** Where `npm start` finds the built demo: `ONBOARDING_DEMO_DIR`, else `demo/dist`. */
export function demoDistDir(env: Record<string, string | undefined> = process.env): string {
  const configured = env.ONBOARDING_DEMO_DIR?.trim();
  return configured ? resolve(configured) : fileURLToPath(new URL('./dist/', import.meta.url));
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.bin': 'application/octet-stream',
  '.wasm': 'application/wasm',
};

/** Vite's content hashes (`name-Bx3kq9Zp.js`, `.js.map`, 8 characters): such a file never changes. */
const HASHED_NAME = /-[A-Za-z0-9_-]{8}\.[a-z0-9.]+$/;

export const CACHE = {
  /** Pages: always revalidated (ETag), so a new build shows at once. */
  page: 'no-cache',
  /** A page rendered for one visit (it holds that visit's session): never kept. */
  visit: 'no-store',
  /** Content-hashed files. */
  immutable: 'public, max-age=31536000, immutable',
  /** Stable names (`onboarding-flow.bundle.js`): revalidated on every use. */
  revalidate: 'no-cache',
} as const;

const PAGES: Record<string, string> = {
  '/': 'index.html',
  '/index.html': 'index.html',
  '/react': 'react/index.html',
  '/react/': 'react/index.html',
  '/react/index.html': 'react/index.html',
  '/vue': 'vue/index.html',
  '/vue/': 'vue/index.html',
  '/vue/index.html': 'vue/index.html',
};

/**
 * The landing page when the demo has not been built: the server itself is fine (the page API
 * works), so it is a 200 that says what to run. Plain HTML, nothing to allow in the CSP.
 */
const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>onboarding-kit demo</title><link rel="icon" href="data:,"></head>
<body><h1>onboarding-kit</h1>
<p>The companion is running: the page API is at <code>/v1</code> (<a href="/v1/health">health</a>).</p>
<p>The demo pages are not in the demo directory. <code>npm start</code> builds them into
<code>demo/dist</code> before it serves; with <code>ONBOARDING_DEMO_DIR</code> set, build them there
(<code>npm run build</code>), then reload.</p></body></html>
`;

function securityHeaders(c: Context): void {
  c.header('Content-Security-Policy', DEMO_CSP);
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Referrer-Policy', 'no-referrer');
  c.header('Permissions-Policy', 'camera=(self), microphone=(), geolocation=(), payment=(), usb=()');
}

/** `dir` + the URL path `rest`, or null when it would leave `dir` or names something not servable. */
function safePath(dir: string, rest: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rest);
  } catch {
    return null;
  }
  const segments = decoded.split('/');
  if (segments.some((s) => s === '' || s.startsWith('.') || s.includes('\\') || s.includes('\0'))) return null;
  if (!(extname(decoded).toLowerCase() in CONTENT_TYPES)) return null;
  const root = resolve(dir);
  const full = resolve(root, ...segments);
  return full.startsWith(root + sep) ? full : null;
}

async function sendFile(c: Context, path: string, cacheControl: string): Promise<Response | null> {
  let info;
  try {
    info = await stat(path);
  } catch {
    return null;
  }
  if (!info.isFile()) return null;
  const etag = `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
  securityHeaders(c);
  c.header('Cache-Control', cacheControl);
  c.header('ETag', etag);
  c.header('Last-Modified', info.mtime.toUTCString());
  const inm = c.req.header('if-none-match');
  if (inm && inm.split(',').some((t) => t.trim() === etag)) return c.body(null, 304);
  const bytes = await readFile(path);
  c.header('Content-Type', CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream');
  return c.body(bytes, 200);
}

async function sendRendered(c: Context, path: string, render: NonNullable<DemoRoutesOptions['renderPage']>): Promise<Response | null> {
  let html: string;
  try {
    html = await readFile(path, 'utf8');
  } catch {
    return null;
  }
  const page = new URL(c.req.url);
  const body = await render(html, { path: page.pathname.replace(/\/index\.html$|\/$/, '') || '/', query: page.searchParams });
  securityHeaders(c);
  c.header('Cache-Control', CACHE.visit);
  return c.html(body, 200);
}

export function demoRoutes(options: DemoRoutesOptions): Hono {
  const distDir = resolve(options.distDir);
  const elementDir = resolve(options.elementDir ?? join(distDir, 'element'));
  const app = new Hono();

  for (const [route, file] of Object.entries(PAGES)) {
    app.get(route, async (c) => {
      const render = options.renderPage;
      const sent = render ? await sendRendered(c, join(distDir, file), render) : await sendFile(c, join(distDir, file), CACHE.page);
      if (sent) return sent;
      securityHeaders(c);
      c.header('Cache-Control', 'no-store');
      return c.html(NOT_BUILT, 200);
    });
  }

  app.get('/assets/*', async (c, next) => {
    const path = safePath(join(distDir, 'assets'), c.req.path.slice('/assets/'.length));
    return (path && (await sendFile(c, path, HASHED_NAME.test(path) ? CACHE.immutable : CACHE.revalidate))) || next();
  });

  app.get('/element/*', async (c, next) => {
    // The element's script-tag files have stable names (a page links them by name): always revalidated.
    const path = safePath(elementDir, c.req.path.slice('/element/'.length));
    return (path && (await sendFile(c, path, CACHE.revalidate))) || next();
  });

  return app;
}
