/** demo/demo-routes.ts through app.request(): pages, assets and element bundles, types, caching, CSP, confinement. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { DEMO_CSP } from '../../demo/csp.js';
import { CACHE, demoDistDir, demoRoutes } from '../../demo/demo-routes.js';

let dir: string;

/** A root like start.ts's: the demo at `/`, everything else a JSON 404. */
function appFor(options: Parameters<typeof demoRoutes>[0]): Hono {
  const root = new Hono();
  root.route('/', demoRoutes(options));
  root.notFound((c) => c.json({ error: { code: 'not_found', message: 'No such route.' } }, 404));
  return root;
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'demo-routes-'));
  const files: Record<string, string> = {
    'dist/index.html': '<!doctype html><title>capture</title>',
    'dist/react/index.html': '<!doctype html><title>react</title>',
    'dist/vue/index.html': '<!doctype html><title>vue</title>',
    'dist/assets/index-AbCd1234.js': 'console.log(1)',
    'dist/assets/index-AbCd1234.css': 'body{}',
    'dist/assets/index-AbCd1234.js.map': '{}',
    'dist/assets/stable-name.js': '/* a file without a content hash */',
    'dist/assets/notes.exe': 'MZ',
    'dist/element/onboarding-flow.bundle.js': 'export {}',
    'dist/element/onboarding-flow.bundle.js.map': '{}',
    'secret.js': 'outside',
    'other-element/onboarding-flow.iife.js': '/* iife */',
  };
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  await mkdir(join(dir, 'empty'));
});

after(() => rm(dir, { recursive: true, force: true }));

test('pages: /, /react, /vue (with and without slash) as HTML with the CSP, revalidated', async () => {
  const app = appFor({ distDir: join(dir, 'dist') });
  for (const [path, title] of [
    ['/', 'capture'],
    ['/index.html', 'capture'],
    ['/react', 'react'],
    ['/react/', 'react'],
    ['/vue', 'vue'],
    ['/vue/', 'vue'],
  ] as const) {
    const res = await app.request(path);
    assert.equal(res.status, 200, path);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(res.headers.get('content-security-policy'), DEMO_CSP);
    assert.equal(res.headers.get('cache-control'), CACHE.page);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.match(res.headers.get('permissions-policy') ?? '', /camera=\(self\)/);
    assert.match(await res.text(), new RegExp(`<title>${title}</title>`));
  }
});

test('the CSP allows no inline script or style and no eval, WebAssembly aside', () => {
  assert.doesNotMatch(DEMO_CSP, /'unsafe-inline'|'unsafe-eval'|'unsafe-hashes'|\*/);
  assert.match(DEMO_CSP, /default-src 'none'/);
  assert.match(DEMO_CSP, /script-src 'self' 'wasm-unsafe-eval' 'report-sample'(;|$)/);
  assert.match(DEMO_CSP, /style-src 'self' 'report-sample'(;|$)/);
  assert.match(DEMO_CSP, /frame-ancestors 'none'/);
});

test('conditional requests: the ETag gives 304 without a body', async () => {
  const app = appFor({ distDir: join(dir, 'dist') });
  const first = await app.request('/');
  const etag = first.headers.get('etag');
  assert.ok(etag);
  const again = await app.request('/', { headers: { 'if-none-match': etag } });
  assert.equal(again.status, 304);
  assert.equal(await again.text(), '');
});

test('assets: content types; hashed names cached for good, stable names revalidated', async () => {
  const app = appFor({ distDir: join(dir, 'dist') });
  const js = await app.request('/assets/index-AbCd1234.js');
  assert.equal(js.status, 200);
  assert.equal(js.headers.get('content-type'), 'text/javascript; charset=utf-8');
  assert.equal(js.headers.get('cache-control'), CACHE.immutable);
  assert.equal(await js.text(), 'console.log(1)');
  const css = await app.request('/assets/index-AbCd1234.css');
  assert.equal(css.headers.get('content-type'), 'text/css; charset=utf-8');
  const map = await app.request('/assets/index-AbCd1234.js.map');
  assert.equal(map.headers.get('cache-control'), CACHE.immutable);
  const lib = await app.request('/assets/stable-name.js');
  assert.equal(lib.status, 200);
  assert.equal(lib.headers.get('cache-control'), CACHE.revalidate);
});

test('element bundles at /element/*, from the demo build or from a directory of their own', async () => {
  const app = appFor({ distDir: join(dir, 'dist') });
  const bundle = await app.request('/element/onboarding-flow.bundle.js');
  assert.equal(bundle.status, 200);
  assert.equal(bundle.headers.get('content-type'), 'text/javascript; charset=utf-8');
  assert.equal(bundle.headers.get('cache-control'), CACHE.revalidate);
  assert.equal(bundle.headers.get('content-security-policy'), DEMO_CSP);
  const map = await app.request('/element/onboarding-flow.bundle.js.map');
  assert.equal(map.headers.get('content-type'), 'application/json; charset=utf-8');

  const own = appFor({ distDir: join(dir, 'dist'), elementDir: join(dir, 'other-element') });
  assert.equal((await own.request('/element/onboarding-flow.iife.js')).status, 200);
  assert.equal((await own.request('/element/onboarding-flow.bundle.js')).status, 404);
});

test('nothing outside the directories, no dotfiles, no unknown types, no directories', async () => {
  const app = appFor({ distDir: join(dir, 'dist') });
  for (const path of [
    '/assets/..%2f..%2fsecret.js',
    '/assets/%2e%2e/%2e%2e/secret.js',
    '/element/..%2F..%2Fsecret.js',
    '/assets/.hidden.js',
    '/assets/notes.exe',
    '/assets/missing-AbCd1234.js',
    '/assets/',
    '/element/%zz.js',
    '/elsewhere.js',
  ]) {
    const res = await app.request(path);
    assert.equal(res.status, 404, path);
    assert.doesNotMatch(await res.text(), /outside|MZ/, path);
  }
});

test('a demo that was not built gets a landing page that says to build it (with the CSP, never cached)', async () => {
  const app = appFor({ distDir: join(dir, 'empty') });
  for (const path of ['/', '/react', '/vue']) {
    const res = await app.request(path);
    assert.equal(res.status, 200, path);
    assert.equal(res.headers.get('content-security-policy'), DEMO_CSP);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.match(await res.text(), /npm run build/);
  }
});

test('HEAD is answered like GET without a body', async () => {
  const app = appFor({ distDir: join(dir, 'dist') });
  const res = await app.request('/', { method: 'HEAD' });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.equal(await res.text(), '');
});

test('demoDistDir: ONBOARDING_DEMO_DIR, else demo/dist', () => {
  assert.equal(demoDistDir({ ONBOARDING_DEMO_DIR: dir }), dir);
  assert.match(demoDistDir({}), /demo[/\\]dist[/\\]?$/);
});
