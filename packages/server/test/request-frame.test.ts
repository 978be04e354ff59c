/**
 * The companion's one request middleware (src/middleware/request-frame.ts) answers exactly as the
 * five middlewares it replaced: Hono's requestId() and secureHeaders(), the in-flight count, the
 * request log and the CORS allowlist. Both stacks are built around the same routes and error
 * handler and sent the same requests: same statuses, headers and bodies, the same log lines.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import { secureHeaders } from 'hono/secure-headers';
import { createJsonLogger } from '@onboarding-kit/server';
import { CompanionError } from '../src/http/companion-error.js';
import type { CompanionEnv } from '../src/http/env.js';
import { companionErrorHandler, notFoundHandler } from '../src/http/error-handler.js';
import { InFlight } from '../src/lifecycle/in-flight.js';
import { corsAllowlist } from '../src/middleware/cors.js';
import { requestFrame } from '../src/middleware/request-frame.js';
import { requestLog } from '../src/middleware/request-log.js';

const ORIGINS = ['https://shop.example'];

function build(kind: 'frame' | 'five') {
  const lines: string[] = [];
  const logger = createJsonLogger({ sink: (l) => lines.push(l) });
  const inFlight = new InFlight();
  const app = new Hono<CompanionEnv>();
  if (kind === 'frame') app.use('*', requestFrame({ inFlight, logger, allowedOrigins: ORIGINS }));
  else {
    app.use('*', inFlight.middleware);
    app.use('*', requestId());
    app.use('*', requestLog(logger));
    app.use('*', secureHeaders());
    app.use('*', corsAllowlist(ORIGINS));
  }
  app.onError(companionErrorHandler({ logger, environment: 'sandbox' }));
  app.notFound(notFoundHandler);
  app.get('/v1/ok', (c) => {
    c.header('X-Powered-By', 'something');
    return c.json({ ok: true, inFlight: inFlight.size });
  });
  app.post('/v1/refused', () => {
    throw new CompanionError(429, 'rate_limited', 'Too many.', { headers: { 'Retry-After': '7' } });
  });
  app.get('/v1/bug', () => {
    throw new Error('a bug');
  });
  app.get('/capture/:token', (c) => c.text('page'));
  app.get('/v1/raw', () => new Response('raw', { headers: { 'content-type': 'text/plain' } }));
  return { app, lines, inFlight };
}

const REQUESTS: [string, RequestInit][] = [
  ['/v1/ok', { headers: { 'x-request-id': 'req-1', origin: 'https://shop.example' } }],
  ['/v1/ok', { headers: { 'x-request-id': 'req-2', origin: 'https://evil.example' } }],
  ['/v1/refused', { method: 'POST', headers: { 'x-request-id': 'req-3', origin: 'https://SHOP.example' } }],
  ['/v1/bug', { headers: { 'x-request-id': 'req-4' } }],
  ['/v1/nope', { headers: { 'x-request-id': 'req-5' } }],
  ['/capture/secret-capture-token', { headers: { 'x-request-id': 'req-6' } }],
  ['/v1/raw', { headers: { 'x-request-id': 'req-7', origin: 'https://shop.example' } }],
  [
    '/v1/ok',
    { method: 'OPTIONS', headers: { 'x-request-id': 'req-8', origin: 'https://shop.example', 'access-control-request-method': 'POST' } },
  ],
  [
    '/v1/ok',
    { method: 'OPTIONS', headers: { 'x-request-id': 'req-9', origin: 'https://evil.example', 'access-control-request-method': 'POST' } },
  ],
];

async function answer(app: Hono<CompanionEnv>, path: string, init: RequestInit) {
  const res = await app.request(path, init);
  return { status: res.status, headers: [...res.headers].sort(), body: await res.text() };
}

test('the one request middleware answers as the five it replaced: statuses, headers, bodies, log lines', async () => {
  const frame = build('frame');
  const five = build('five');
  for (const [path, init] of REQUESTS) {
    const a = await answer(frame.app, path, init);
    const b = await answer(five.app, path, init);
    assert.deepEqual(a, b, `${init.method ?? 'GET'} ${path}`);
    assert.ok(
      a.headers.some(([k, v]) => k === 'x-content-type-options' && v === 'nosniff'),
      path,
    );
    assert.ok(!a.headers.some(([k]) => k === 'x-powered-by'), path);
  }
  const strip = (lines: string[]) =>
    lines.map((l) => {
      const { time: _time, ms: _ms, ...rest } = JSON.parse(l) as Record<string, unknown>;
      return rest;
    });
  assert.deepEqual(strip(frame.lines), strip(five.lines));
  assert.ok(frame.lines.some((l) => l.includes('/capture/:token')) && !frame.lines.some((l) => l.includes('secret-capture-token')));
  assert.equal(frame.inFlight.size, 0);
});

test('a request id that is not a plain token of at most 255 characters is replaced by a UUID', async () => {
  const { app } = build('frame');
  for (const bad of ['has space', 'x'.repeat(256), 'semi;colon']) {
    const res = await app.request('/v1/ok', { headers: { 'x-request-id': bad } });
    assert.match(res.headers.get('x-request-id')!, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  }
  assert.equal((await app.request('/v1/ok', { headers: { 'x-request-id': 'a=b-c_d' } })).headers.get('x-request-id'), 'a=b-c_d');
  const body = (await (await app.request('/v1/ok')).json()) as { inFlight: number };
  assert.equal(body.inFlight, 1, 'counted in flight while its handler runs');
});
