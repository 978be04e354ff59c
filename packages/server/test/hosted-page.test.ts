/**
 * The hosted capture page and the hand-off pages (docs/hosted-page.md): what `GET /capture/<token>`
 * serves for a fresh, unknown, used and expired session, under which headers, with which brand;
 * the files it loads, from the companion itself; the hand-off link page that claims nothing on
 * its GET; the short-code page; the request log that never holds a token; the brand's checks.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { body, companionOn, startStack, type Stack } from '@onboarding-kit/testing/stack';
import {
  CompanionConfigError,
  HOSTED_CSP,
  listen,
  loadBrand,
  readBrandFile,
  type CompanionApp,
  type CompanionOptions,
} from '@onboarding-kit/server';
import type { CreateSessionResponse, HandoffOffer } from '@onboarding-kit/contract';
import { BuildMissing, defaultElementDir, HostedAssets } from '../src/hosted/hosted-assets.js';
import { localeFromAcceptLanguage } from '../src/hosted/page-text.js';
import { redactPath } from '../src/middleware/request-log.js';

const API_KEY = 'sk_test_hosted_0123456789abcdef0123456789';
const CPF = '529.982.247-25';
const EXPECTED_CSP =
  "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:; media-src blob: mediastream:; connect-src 'self'; worker-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** A PNG's signature and header chunk: enough for the type check (the browser test uses a real SVG). */
const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0,
]);

let stack: Stack;
let dir: string;
let logoPath: string;
before(async () => {
  stack = await startStack();
  dir = mkdtempSync(join(tmpdir(), 'okit-hosted-'));
  logoPath = join(dir, 'logo.png');
  writeFileSync(logoPath, PNG);
});
after(async () => {
  await stack.close();
  rmSync(dir, { recursive: true, force: true });
});

function companion(over: Partial<CompanionOptions> = {}): { app: CompanionApp; logs: string[] } {
  return companionOn(stack, {
    apiKeys: [API_KEY],
    publicUrl: 'https://kyc.example',
    hostedPage: { brand: { name: 'Banco Exemplo', logo: logoPath, color: '#6a1b9a', background: '#f4eef8', radius: 12 } },
    ...over,
  });
}

async function openSession(
  app: CompanionApp,
  payload: Record<string, unknown> = {},
): Promise<CreateSessionResponse & { token: string; path: string }> {
  const res = await app.request('/v1/sessions', {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ reference: 'user-hosted', cpf: CPF, ...payload }),
  });
  assert.equal(res.status, 201, await res.clone().text());
  const s = (await res.json()) as CreateSessionResponse;
  const path = new URL(s.url).pathname;
  return { ...s, path, token: path.replace('/capture/', '') };
}

/** Every `src`/`href` of a page. */
function links(html: string): string[] {
  return [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((m) => m[1]!);
}

function assertPageHeaders(res: Response): void {
  assert.equal(res.headers.get('content-security-policy'), EXPECTED_CSP);
  assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(res.headers.get('cache-control'), 'no-store');
  assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
}

test('the page of a fresh session: the flow for its script to bind to a page secret (the token nowhere in the page), under the exact CSP, with the brand, and nothing from elsewhere', async () => {
  assert.equal(HOSTED_CSP, EXPECTED_CSP);
  const { app } = companion();
  const s = await openSession(app, { locale: 'es' });
  const res = await app.request(s.path);
  assert.equal(res.status, 200);
  assertPageHeaders(res);
  const html = await res.text();
  assert.match(html, /<html lang="es">/);
  const tag = /<template id="okit-flow"><div class="okit-flow"><onboarding-flow ([^>]*)><\/onboarding-flow>/.exec(html)?.[1];
  assert.ok(tag, html);
  assert.doesNotMatch(tag, /session=/, 'the script binds the flow to the page secret it gets');
  assert.ok(!html.includes(s.token), 'the capture token is not in the page (the script reads it from the address)');
  assert.match(html, /data-page="capture" data-endpoint="\/v1" data-device-path="\/capture"/);
  assert.match(html, /<h1 tabindex="-1">Abriendo la verificación…<\/h1>/);
  assert.match(tag, /(^| )handoff( |$)/);
  assert.match(tag, /(^| )endpoint="\/"( |$)/);
  assert.match(tag, /(^| )locale="es"( |$)/);
  // The consent names the brand as the data controller (LGPD).
  assert.match(tag, /(^| )controller-name="Banco Exemplo"( |$)/);
  assert.ok(!html.includes(s.clientSecret), 'the client secret is never in the page');
  // No inline script or style, nothing of another origin: every link is a path of the companion's.
  assert.doesNotMatch(html, /<script(?![^>]*\ssrc=)[^>]*>/);
  assert.doesNotMatch(html, /<style|\sstyle="/);
  assert.doesNotMatch(html, /https?:\/\/|\/\/[a-z]/i);
  for (const link of links(html)) assert.match(link, /^(\/|data:,$)/, link);
  // The brand: its name, its logo at a hashed path, its colours as the element's custom properties.
  assert.match(html, /<title>Verificación de identidad · Banco Exemplo<\/title>/);
  assert.match(html, /<span class="okit-name" aria-hidden="true">Banco Exemplo<\/span>/);
  const logo = /<img src="(\/capture\/assets\/[0-9a-f]{16}\/logo\.png)" alt="Banco Exemplo">/.exec(html)?.[1];
  assert.ok(logo, 'the logo at a hashed path');
  const logoRes = await app.request(logo);
  assert.equal(logoRes.status, 200);
  assert.equal(logoRes.headers.get('content-type'), 'image/png');
  assert.equal(logoRes.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  assert.deepEqual(new Uint8Array(await logoRes.arrayBuffer()), PNG);
  const css = links(html).find((l) => l.endsWith('.css'))!;
  const cssRes = await app.request(css);
  assert.equal(cssRes.headers.get('content-type'), 'text/css; charset=utf-8');
  assert.equal(cssRes.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  const style = await cssRes.text();
  for (const rule of [
    '--onboarding-color-primary: #6a1b9a',
    '--onboarding-color-on-primary: #ffffff',
    '--onboarding-radius: 12px',
    '--okit-page-bg: #f4eef8',
    'onboarding-flow::part(button-primary)',
  ])
    assert.ok(style.includes(rule), rule);
  assert.doesNotMatch(style, /@import|url\(|https?:/, 'no font or image from elsewhere');
});

test("the element's files and the page's script come from the companion, versioned and immutable; the lazy files resolve beside the bundle", async () => {
  const { app } = companion();
  const s = await openSession(app);
  const html = await (await app.request(s.path)).text();
  const scripts = [...html.matchAll(/<script type="module" src="([^"]+)"><\/script>/g)].map((m) => m[1]!);
  assert.equal(scripts.length, 2);
  const [bundle, pageScript] = scripts as [string, string];
  assert.match(bundle, /^\/capture\/element\/[0-9a-f]{16}\/onboarding-flow\.bundle\.js$/);
  assert.match(pageScript, /^\/capture\/assets\/[0-9a-f]{16}\/hosted-page\.js$/);
  const dirOf = bundle.slice(0, bundle.lastIndexOf('/') + 1);
  for (const path of [
    bundle,
    pageScript,
    `${dirOf}onboarding-flow.pipeline.js`,
    `${dirOf}onboarding-flow.image-worker.js`,
    `${dirOf}onboarding-flow.capture-view.js`,
    `${dirOf}onboarding-flow.liveness-worker.js`,
    `${dirOf}onboarding-flow.after-send.js`,
    `${dirOf}onboarding-flow.consent-text.js`,
  ]) {
    const res = await app.request(path);
    assert.equal(res.status, 200, path);
    assert.equal(res.headers.get('content-type'), 'text/javascript; charset=utf-8', path);
    assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable', path);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    const text = await res.text();
    assert.ok(text.length > 500, path);
    // A URL in a string could be fetched; one in a licence comment (the face model's source) is text,
    // and so is a bare scheme (face-api tests whether a URL starts with `https://`).
    const quoted = /["'`]https?:\/\/(?!www\.w3\.org\/)[^"'`]+/i.exec(text);
    assert.equal(quoted, null, `${path} names no other origin to fetch: ${quoted?.[0]}`);
  }
  // The liveness worker's model and WASM, beside the bundle with their own types.
  for (const [file, type] of [
    ['tiny_face_detector_model-weights_manifest.json', 'application/json'],
    ['tiny_face_detector_model.bin', 'application/octet-stream'],
    ['tfjs-backend-wasm-simd.wasm', 'application/wasm'],
  ] as const) {
    const res = await app.request(`${dirOf}${file}`);
    assert.equal(res.status, 200, file);
    assert.equal(res.headers.get('content-type'), type, file);
  }
  // Another version, the classic-script form, a file that is not the element's: not served.
  for (const path of [
    bundle.replace(/[0-9a-f]{16}/, '0000000000000000'),
    `${dirOf}onboarding-flow.iife.js`,
    `${dirOf}onboarding-flow.bundle.js.map`,
    `${dirOf}..%2Fpackage.json`,
  ]) {
    assert.equal((await app.request(path)).status, 404, path);
  }
  const script = await (await app.request(pageScript)).text();
  assert.match(script, /onboarding-complete/);
  assert.match(script, /searchParams\.set\(["'`]session["'`]/);
  assert.match(script, /searchParams\.set\(["'`]status["'`]/);
});

test('returnUrl: the page carries it and the session id for the redirect; without one, nothing to redirect to', async () => {
  const { app } = companion();
  const withReturn = await openSession(app, { returnUrl: 'https://app.example/kyc/done?from=kyc' });
  const html = await (await app.request(withReturn.path)).text();
  assert.match(html, new RegExp(`data-session-id="${withReturn.id}"`));
  assert.match(html, /data-return-url="https:\/\/app\.example\/kyc\/done\?from=kyc"/);
  assert.match(html, /data-text-redirecting="Redirecionando…"/);
  assert.match(html, /data-text-go-now="Continuar agora"/);
  const without = await (await app.request((await openSession(app)).path)).text();
  assert.doesNotMatch(without, /data-return-url/);
});

test('an unknown token: a 404 page in the browser’s language, with the brand, under the CSP, the token never echoed', async () => {
  const { app, logs } = companion();
  for (const [token, language, heading] of [
    ['AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAbogus', 'en-GB,en;q=0.9', 'Link not found'],
    ['x', 'es-MX', 'Enlace no encontrado'],
    ['%3Cscript%3Ealert(1)%3C%2Fscript%3E', 'fr-FR, de;q=0.8', 'Link não encontrado'],
    ['A'.repeat(300), '', 'Link não encontrado'],
  ] as const) {
    const res = await app.request(`/capture/${token}`, { headers: language ? { 'accept-language': language } : {} });
    assert.equal(res.status, 404);
    assertPageHeaders(res);
    const html = await res.text();
    assert.match(html, new RegExp(`<h1>${heading}</h1>`));
    assert.match(html, /Banco Exemplo/);
    if (token.length > 20) assert.ok(!html.includes(token.slice(0, 20)), 'the token is not echoed');
    assert.ok(!html.includes('alert'), 'nothing of the path is echoed');
    assert.doesNotMatch(html, /<script|Error|at .*\(/);
  }
  assert.ok(!logs.join('\n').includes('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAbogus'));
});

test('a used session (its onboarding sent) and an expired one: 410 pages in the session’s language; the used one leads back to returnUrl', async () => {
  let offset = 0;
  const { app } = companion({
    timers: { now: () => Date.now() + offset, setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as never) },
  });
  const used = await openSession(app, { locale: 'en', returnUrl: 'https://app.example/done' });
  // The hosted page's token creates the onboarding as the session's origin.
  const created = await app.request('/v1/onboardings', {
    method: 'POST',
    headers: { authorization: `Bearer ${used.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body({ cpf: CPF })),
  });
  assert.equal(created.status, 201, await created.clone().text());
  const res = await app.request(used.path);
  assert.equal(res.status, 410);
  assertPageHeaders(res);
  const html = await res.text();
  assert.match(html, /<html lang="en">/);
  assert.match(html, /<h1>This link has already been used<\/h1>/);
  assert.ok(html.includes(`href="https://app.example/done?session=${used.id}&amp;status=IN_PROCESS"`), html);
  assert.ok(!html.includes(used.token));

  const late = await openSession(app, { locale: 'pt-BR', expiresIn: 60 });
  assert.equal((await app.request(late.path)).status, 200);
  offset = 61_000;
  const expired = await app.request(late.path);
  assert.equal(expired.status, 410);
  assertPageHeaders(expired);
  const text = await expired.text();
  assert.match(text, /<h1>Este link expirou<\/h1>/);
  assert.doesNotMatch(text, /<a /, 'nothing to go back to without a returnUrl');
});

test('the capture token is traded once for a page secret: the page secret opens the session as its origin, the token then opens nothing, and its page is a 410', async () => {
  const { app } = companion();
  const s = await openSession(app, { locale: 'en', name: 'Maria Silva' });
  const exchange = (captureToken: unknown) =>
    app.request('/v1/session/exchange', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ captureToken }),
    });
  const res = await exchange(s.token);
  assert.equal(res.status, 201);
  assert.equal(res.headers.get('cache-control'), 'no-store');
  const { pageSecret, sessionId } = (await res.json()) as { pageSecret: string; sessionId: string };
  assert.equal(sessionId, s.id);
  assert.ok(pageSecret.length >= 40 && pageSecret !== s.token && pageSecret !== s.clientSecret);
  const read = (secret: string) => app.request('/v1/session', { headers: { authorization: `Bearer ${secret}` } });
  const page = (await (await read(pageSecret)).json()) as { handoff: unknown; prefill: unknown };
  assert.deepEqual(page.handoff, { state: 'none', holder: true, origin: true });
  assert.deepEqual(page.prefill, { cpf: '***.982.247-**', name: 'Maria' });
  // The token from the address, copied from a history: no second secret, no read, a 410 page.
  const again = await exchange(s.token);
  assert.equal(again.status, 410);
  assert.equal(((await again.json()) as { error: { code: string } }).error.code, 'session_used');
  assert.equal((await read(s.token)).status, 401);
  const html = await app.request(s.path);
  assert.equal(html.status, 410);
  assertPageHeaders(html);
  const text = await html.text();
  assert.match(text, /<h1>This link has already been opened<\/h1>/);
  assert.doesNotMatch(text, /<script/);
  // The page secret creates the onboarding as the session's origin.
  const created = await app.request('/v1/onboardings', {
    method: 'POST',
    headers: { authorization: `Bearer ${pageSecret}`, 'content-type': 'application/json' },
    body: JSON.stringify(body({})),
  });
  assert.equal(created.status, 201, await created.clone().text());
  // Unknown tokens and bad bodies.
  assert.equal((await exchange('A'.repeat(32))).status, 404);
  assert.equal((await exchange(3)).status, 400);
  assert.equal((await exchange('short')).status, 400);
});

test('every page and refusal page says no-referrer in its meta too (a capture URL must never reach returnUrl as a referrer)', async () => {
  const { app } = companion();
  const s = await openSession(app, { returnUrl: 'https://app.example/back' });
  const offer = (await (
    await app.request('/v1/session/handoff', { method: 'POST', headers: { authorization: `Bearer ${s.token}` } })
  ).json()) as HandoffOffer;
  const paths = [s.path, '/capture', '/h', new URL(offer.url).pathname, `/capture/${'Z'.repeat(32)}`];
  for (const path of paths) {
    const res = await app.request(path);
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer', path);
    const html = await res.text();
    const metas = [...html.matchAll(/<meta name="referrer" content="([^"]*)">/g)].map((m) => m[1]);
    assert.deepEqual(metas, ['no-referrer'], path);
  }
});

test('an SVG logo is served under its own CSP, sandboxed: opened on its own it runs nothing and loads nothing', async () => {
  const svg = join(dir, 'csp-logo.svg');
  writeFileSync(svg, '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>');
  const { app } = companion({ hostedPage: { brand: { name: 'Banco Exemplo', logo: svg } } });
  const s = await openSession(app);
  const html = await (await app.request(s.path)).text();
  const logo = /<img src="(\/capture\/assets\/[0-9a-f]{16}\/logo\.svg)"/.exec(html)?.[1];
  assert.ok(logo, html);
  const res = await app.request(logo);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'image/svg+xml');
  assert.equal(res.headers.get('content-security-policy'), "default-src 'none'; style-src 'unsafe-inline'; sandbox");
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
});

test('a brand colour is a whole #rgb or #rrggbb: anything after it (CSS of its own) is refused, in every colour field', () => {
  for (const field of ['color', 'colorOnPrimary', 'background', 'textColor'] as const) {
    for (const value of ['#000000; } body { background: url(//evil.example/x) } x {', '#fff;color:red', '#0b57a4\n}', '#abc ']) {
      assert.throws(
        () => loadBrand({ [field]: value } as never),
        (e: Error) => e instanceof CompanionConfigError && e.message.includes(`brand.${field} must be a colour`),
        `${field} ${JSON.stringify(value)}`,
      );
    }
  }
});

test('the request log never holds a capture or hand-off token: their paths are logged as :token', async () => {
  assert.equal(redactPath('/capture/abcDEF123_-xyz'), '/capture/:token');
  assert.equal(redactPath('/kyc/capture/abc/def'), '/kyc/capture/:token/def');
  assert.equal(redactPath('/capture/assets/0123456789abcdef/hosted-page.js'), '/capture/assets/0123456789abcdef/hosted-page.js');
  assert.equal(
    redactPath('/capture/element/0123456789abcdef/onboarding-flow.bundle.js'),
    '/capture/element/0123456789abcdef/onboarding-flow.bundle.js',
  );
  assert.equal(redactPath('/h/Zm9vYmFy'), '/h/:token');
  assert.equal(redactPath('/h'), '/h');
  assert.equal(redactPath('/v1/handoff/claim'), '/v1/handoff/claim');

  const { app, logs } = companion();
  const s = await openSession(app);
  await app.request(s.path);
  const offer = (await (
    await app.request('/v1/session/handoff', { method: 'POST', headers: { authorization: `Bearer ${s.token}` } })
  ).json()) as HandoffOffer;
  const linkPath = new URL(offer.url).pathname;
  const linkToken = linkPath.replace('/h/', '');
  assert.equal((await app.request(linkPath)).status, 200);
  await app.request(`/capture/${s.token}x`);
  const lines = logs.map((l) => JSON.parse(l) as { msg: string; path?: string; status?: number }).filter((l) => l.msg === 'request');
  assert.deepEqual(
    lines.filter((l) => l.path?.startsWith('/capture/:') || l.path?.startsWith('/h/')).map((l) => `${l.path} ${l.status}`),
    ['/capture/:token 200', '/h/:token 200', '/capture/:token 404'],
  );
  const all = logs.join('\n');
  for (const secret of [s.token, linkToken, s.clientSecret]) assert.ok(!all.includes(secret), 'no token in the logs');
});

test('the hand-off link page claims nothing on its GET (a scanner or prefetch cannot burn it); its script claims; the code page', async () => {
  const { app } = companion();
  const s = await openSession(app, { locale: 'en' });
  const offer = (await (
    await app.request('/v1/session/handoff', { method: 'POST', headers: { authorization: `Bearer ${s.token}` } })
  ).json()) as HandoffOffer;
  const linkPath = new URL(offer.url).pathname;
  for (let i = 0; i < 3; i++) {
    const res = await app.request(linkPath, { headers: { 'accept-language': 'pt-BR' } });
    assert.equal(res.status, 200);
    assertPageHeaders(res);
    const html = await res.text();
    assert.match(html, /data-page="claim"/);
    assert.match(html, /data-endpoint="\/v1"/);
    assert.match(html, /data-device-path="\/capture"/);
    assert.match(html, /Este link já foi usado/);
    assert.match(html, /gere um novo no computador/);
    assert.ok(!html.includes(linkPath.slice(3)), 'the link token is not in the page (the script reads it from the address)');
    assert.doesNotMatch(html, /session="/, 'no secret in the page before a claim');
  }
  const page = (await (await app.request('/v1/session', { headers: { authorization: `Bearer ${s.token}` } })).json()) as {
    handoff: { state: string };
  };
  assert.equal(page.handoff.state, 'pending', 'three GETs later the link is still unused');
  const claim = await app.request('/v1/handoff/claim', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: linkPath.replace('/h/', '') }),
  });
  assert.equal(claim.status, 200);

  const code = await app.request('/h', { headers: { 'accept-language': 'en' } });
  assert.equal(code.status, 200);
  assertPageHeaders(code);
  const form = await code.text();
  const input = /<input ([^>]*)>/.exec(form)?.[1] ?? '';
  for (const attr of ['autocomplete="off"', 'autocapitalize="characters"', 'inputmode="text"', 'spellcheck="false"', 'name="code"'])
    assert.ok(input.includes(attr), attr);
  assert.match(form, /<label for="okit-code">Code<\/label>/);
  assert.match(form, /data-text-code-rate-limited="Too many attempts\. Wait \{s\} seconds and try again\."/);
  assert.match(form, /data-text-code-wrong="Wrong code/);
  // The device's capture page, which mounts the flow with the secret its claim kept in sessionStorage.
  const device = await app.request('/capture', { headers: { 'accept-language': 'es' } });
  assert.equal(device.status, 200);
  assertPageHeaders(device);
  const deviceHtml = await device.text();
  assert.match(
    deviceHtml,
    /<template id="okit-flow"><div class="okit-flow"><onboarding-flow endpoint="\/" handoff controller-name="Banco Exemplo"><\/onboarding-flow><\/div><\/template>/,
  );
  assert.match(deviceHtml, /Ninguna verificación en este dispositivo/);
});

test('mounted under a path, the pages link their files and the API under it', async () => {
  const { app } = companion();
  const root = new Hono();
  root.route('/kyc', app);
  const s = await openSession(app);
  const res = await root.request(`/kyc${s.path}`);
  assert.equal(res.status, 200);
  const html = await res.text();
  assert.match(html, /endpoint="\/kyc\/"/);
  for (const link of links(html).filter((l) => l !== 'data:,')) {
    assert.match(link, /^\/kyc\/capture\//);
    assert.equal((await root.request(link)).status, 200, link);
  }
  assert.match(await (await root.request('/kyc/h')).text(), /data-endpoint="\/kyc\/v1"/);
});

test('over a real socket: the page, its files and the 404 page, with their headers', async () => {
  const { app } = companion({ publicUrl: undefined });
  const server = await listen((req, env) => app.fetch(req, env as never), { port: 0 });
  try {
    const open = await fetch(`${server.url}/v1/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ reference: 'socket', returnUrl: 'https://app.example/back' }),
    });
    const s = (await open.json()) as CreateSessionResponse;
    assert.ok(s.url.startsWith(`${server.url}/capture/`), s.url);
    const res = await fetch(s.url);
    assert.equal(res.status, 200);
    assertPageHeaders(res);
    const html = await res.text();
    for (const link of links(html).filter((l) => l !== 'data:,')) {
      const file = await fetch(`${server.url}${link}`);
      assert.equal(file.status, 200, link);
      assert.equal(file.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      await file.arrayBuffer();
    }
    const missing = await fetch(`${server.url}/capture/nope-${'z'.repeat(30)}`);
    assert.equal(missing.status, 404);
    assertPageHeaders(missing);
    assert.doesNotMatch(await missing.text(), /nope-z/);
  } finally {
    await server.close();
    await app.close();
  }
});

test("without the element's build the pages answer 503 (logged once, saying what to do); the 404 page still works", async () => {
  const empty = mkdtempSync(join(tmpdir(), 'okit-no-element-'));
  try {
    const { app, logs } = companion({ hostedPage: { elementDir: empty } });
    const s = await openSession(app);
    for (let i = 0; i < 2; i++) {
      const res = await app.request(s.path);
      assert.equal(res.status, 503);
      assertPageHeaders(res);
      assert.equal(res.headers.get('retry-after'), '60');
      assert.match(await res.text(), /Página indisponível/);
    }
    assert.equal(logs.filter((l) => l.includes('hosted page unavailable') && l.includes('npm run build')).length, 1);
    assert.equal((await app.request('/capture/unknown-token-0000000000000')).status, 404);
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});

test("without the page's script built, the pages that load it are refused saying what to do; its stylesheet is still served", () => {
  const empty = mkdtempSync(join(tmpdir(), 'okit-no-script-'));
  try {
    const brand = loadBrand({});
    const missing = new HostedAssets(brand, defaultElementDir(), empty);
    assert.throws(
      () => missing.scriptsVersion(),
      (e: Error) =>
        e instanceof BuildMissing && e.message.includes(`hosted-page.js) is not in ${empty}`) && e.message.includes('npm run build'),
    );
    assert.deepEqual([...missing.page.files.keys()], ['hosted-page.css']);
    // Where the companion looks by default, the build's script: the pages load it beside the stylesheet.
    const built = new HostedAssets(brand, defaultElementDir());
    assert.match(built.scriptsVersion(), /^[0-9a-f]{16}$/);
    assert.deepEqual([...built.page.files.keys()].sort(), ['hosted-page.css', 'hosted-page.js']);
    assert.notEqual(built.page.version, missing.page.version, "the script's bytes are part of the page's version");
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});

test('the brand is checked at creation: each bad value is named, a bad logo file too', () => {
  const bad = (brand: Record<string, unknown>) => {
    try {
      loadBrand(brand as never);
    } catch (e) {
      assert.ok(e instanceof CompanionConfigError);
      return e.message;
    }
    assert.fail(`accepted ${JSON.stringify(brand)}`);
  };
  assert.match(bad({ color: 'purple' }), /brand\.color must be a colour written #rgb or #rrggbb \(got "purple"\)/);
  assert.match(bad({ color: '#777777' }), /brand\.color #777777 with text #ffffff has a contrast of 4\.48:1/);
  assert.match(bad({ color: '#777777', colorOnPrimary: '#888888' }), /contrast of 1\.\d\d:1; buttons need at least 4\.5:1/);
  assert.match(bad({ textColor: '#cccccc' }), /brand\.textColor #cccccc on white has a contrast/);
  assert.match(bad({ name: '<b>Bank</b>' }), /brand\.name must be 1 to 60/);
  assert.match(bad({ name: 'x'.repeat(61) }), /brand\.name/);
  assert.match(bad({ radius: 40 }), /brand\.radius must be a whole number of pixels from 0 to 32/);
  assert.match(bad({ colour: '#000000' }), /unknown member "colour"/);
  assert.match(bad({ logo: join(dir, 'missing.png') }), /brand\.logo: .*missing\.png could not be read \(ENOENT\)/);
  const text = join(dir, 'not-an-image.png');
  writeFileSync(text, 'hello, this is text');
  assert.match(bad({ logo: text }), /is not a PNG, JPEG, WebP or SVG image \(told by its content, not its name\)/);
  const huge = join(dir, 'huge.png');
  writeFileSync(huge, Buffer.concat([Buffer.from(PNG), Buffer.alloc(300 * 1024)]));
  assert.match(bad({ logo: huge }), /has 307229 bytes; a logo may have at most 262144 \(256 KiB\)/);
  // Every problem at once, and with the labels of `npm start`'s variables.
  try {
    loadBrand({ color: 'red', radius: -1 }, (field) => `ONBOARDING_BRAND_${field.toUpperCase()}`);
    assert.fail('accepted');
  } catch (e) {
    assert.match((e as Error).message, /ONBOARDING_BRAND_COLOR must be.*; ONBOARDING_BRAND_RADIUS must be/);
  }
  assert.throws(() => companion({ hostedPage: { brand: { color: '#12' } } }), /Invalid brand of the hosted page: brand\.color/);

  const svg = join(dir, 'logo.svg');
  writeFileSync(
    svg,
    '<?xml version="1.0"?>\n<!-- a logo -->\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>',
  );
  const ok = loadBrand({ name: 'Loja São João & Cia.', logo: svg, color: '#FFCC00', radius: 0 });
  assert.equal(ok.logo?.type, 'image/svg+xml');
  assert.equal(ok.color, '#ffcc00');
  assert.equal(ok.colorOnPrimary, '#111111', 'dark text on a light colour');
  assert.match(ok.logo!.hash, /^[0-9a-f]{16}$/);
});

test('a brand file: JSON with the same members, its logo relative to the file; a bad file is named', () => {
  const file = join(dir, 'brand.json');
  writeFileSync(file, JSON.stringify({ name: 'Banco Exemplo', logo: 'logo.png', color: '#0b57a4' }));
  const input = readBrandFile(file);
  assert.equal(input.logo, logoPath);
  assert.equal(loadBrand(input).logo?.type, 'image/png');
  writeFileSync(file, '{ "name": ');
  assert.throws(
    () => readBrandFile(file),
    (e: Error) => e instanceof CompanionConfigError && e.message.includes(`The brand file ${file} is not JSON`),
  );
  writeFileSync(file, '["a"]');
  assert.throws(() => readBrandFile(file), /must hold a JSON object/);
  assert.throws(() => readBrandFile(join(dir, 'nope.json')), /could not be read \(ENOENT\)/);
});

test('Accept-Language picks the first of the three locales by weight', () => {
  assert.equal(localeFromAcceptLanguage(undefined), 'pt-BR');
  assert.equal(localeFromAcceptLanguage('en-US,en;q=0.9'), 'en');
  assert.equal(localeFromAcceptLanguage('fr-FR, es;q=0.8, en;q=0.7'), 'es');
  assert.equal(localeFromAcceptLanguage('en;q=0.5, pt-PT;q=0.9'), 'pt-BR');
  assert.equal(localeFromAcceptLanguage('de, fr'), 'pt-BR');
  assert.equal(localeFromAcceptLanguage('es;q=0, en'), 'en');
});
