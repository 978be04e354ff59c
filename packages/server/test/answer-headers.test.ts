/**
 * The headers the companion adds to every answer (transport/answer-header.ts): on Node, written
 * once to Node's response, the answer itself left as the route made it (node-server then writes
 * a plain answer without building a web `Headers`); through `app.request()`, set on the answer.
 * Both ways give the same answers: a route's own request id and `Cache-Control` win, the security
 * headers win over a route's own, `Vary` gains `Origin`, and `X-Powered-By` never leaves. And a
 * creation writes one log line, its request's, carrying the onboarding and the masked tax id.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { Hono } from 'hono';
import { createJsonLogger, listen } from '@onboarding-kit/server';
import type { CompanionEnv } from '../src/http/env.js';
import { InFlight } from '../src/lifecycle/in-flight.js';
import { requestFrame, SECURITY_HEADERS } from '../src/middleware/request-frame.js';
import { defaultAnswerHeader } from '../src/transport/index.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { createBody, CPF_APPROVED } from './helpers/fixtures.js';
import { created, testCompanion } from './helpers/companion.js';

const ORIGIN = 'https://shop.example';

let up: FakeUpstream;
before(async () => {
  up = await startFakeUpstream();
});
after(() => up.close());

function build() {
  const app = new Hono<CompanionEnv>();
  app.use('*', requestFrame({ inFlight: new InFlight(), logger: createJsonLogger({ sink: () => {} }), allowedOrigins: [ORIGIN] }));
  app.use('*', async (c, next) => {
    await next();
    defaultAnswerHeader(c, 'Cache-Control', 'no-store');
  });
  app.get('/plain', (c) => c.json({ ok: true }));
  app.get('/own', (c) => {
    c.header('X-Request-Id', 'the-route-s-own');
    c.header('Cache-Control', 'max-age=5');
    c.header('X-Frame-Options', 'DENY');
    c.header('Vary', 'Accept-Language');
    c.header('X-Powered-By', 'a framework');
    return c.json({ ok: true });
  });
  app.get('/raw', () => new Response('raw', { headers: { 'content-type': 'text/plain', 'x-powered-by': 'a framework' } }));
  return app;
}

/** The answer's headers as a sorted list (node:http joins repeated ones as the Fetch API does). */
function nodeGet(url: string, path: string): Promise<[string, string][]> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { agent: false, headers: { 'x-request-id': 'req-1', origin: ORIGIN } }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve(
          Object.entries(res.headers)
            .filter(([k]) => !['date', 'connection', 'content-length', 'keep-alive', 'transfer-encoding'].includes(k))
            .map(([k, v]) => [k, String(v)] as [string, string])
            .sort(),
        ),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

async function webGet(app: Hono<CompanionEnv>, path: string): Promise<[string, string][]> {
  const res = await app.request(path, { headers: { 'x-request-id': 'req-1', origin: ORIGIN } });
  return [...res.headers].filter(([k]) => k !== 'content-length').sort();
}

const header = (list: [string, string][], name: string) => list.find(([k]) => k === name)?.[1];

test("on Node and through app.request(): the same headers; the route's own id and Cache-Control win, the security headers win, X-Powered-By never leaves", async (t) => {
  const app = build();
  const served = await listen(app.fetch, { port: 0 });
  t.after(() => served.close({ graceMs: 50 }));
  for (const path of ['/plain', '/own']) {
    const onNode = await nodeGet(served.url, path);
    assert.deepEqual(onNode, await webGet(app, path), path);
    for (const [name, value] of SECURITY_HEADERS) assert.equal(header(onNode, name.toLowerCase()), value, `${path} ${name}`);
    assert.equal(header(onNode, 'x-powered-by'), undefined, path);
    assert.equal(header(onNode, 'access-control-allow-origin'), ORIGIN, path);
  }
  const own = await nodeGet(served.url, '/own');
  assert.equal(header(own, 'x-request-id'), 'the-route-s-own');
  assert.equal(header(own, 'cache-control'), 'max-age=5');
  assert.equal(header(own, 'x-frame-options'), 'SAMEORIGIN');
  assert.equal(header(own, 'vary'), 'Accept-Language, Origin');
  const plain = await nodeGet(served.url, '/plain');
  assert.equal(header(plain, 'x-request-id'), 'req-1');
  assert.equal(header(plain, 'cache-control'), 'no-store');
  assert.equal(header(plain, 'vary'), 'Origin');
  // A Response the route made itself: its X-Powered-By goes too, the security headers come.
  const raw = await nodeGet(served.url, '/raw');
  assert.equal(header(raw, 'x-powered-by'), undefined);
  assert.equal(header(raw, 'x-content-type-options'), 'nosniff');
  assert.equal(header(await webGet(app, '/raw'), 'x-powered-by'), undefined);
});

test("on Node the headers go to Node's response, and a plain answer keeps the headers node-server writes without a web Headers", async (t) => {
  const app = build();
  const seen: { early?: unknown; given?: unknown } = {};
  app.get('/look', (c) => {
    // The request id is on Node's response before the route answers.
    seen.early = (c.env as { outgoing: { getHeader(name: string): unknown } }).outgoing.getHeader('x-request-id');
    return c.json({ ok: true });
  });
  const served = await listen(
    async (req, env) => {
      const res = await app.fetch(req, env);
      // node-server's lightweight answer keeps the headers it was given; a web Headers there means they were converted.
      const key = Object.getOwnPropertySymbols(res).find((s) => s.description === 'cache');
      seen.given = key ? (res as unknown as Record<symbol, unknown[]>)[key]![2] : 'no lightweight answer';
      return res;
    },
    { port: 0 },
  );
  t.after(() => served.close({ graceMs: 50 }));
  const headers = await nodeGet(served.url, '/look');
  assert.equal(seen.early, 'req-1');
  assert.ok(!(seen.given instanceof Headers), 'no web Headers made');
  assert.deepEqual(seen.given, { 'Content-Type': 'application/json' });
  assert.equal(header(headers, 'x-request-id'), 'req-1');
  assert.equal(header(headers, 'strict-transport-security'), 'max-age=15552000; includeSubDomains');
});

test('a creation writes one log line: its request line, with the onboarding, the masked tax id and the status', async () => {
  const { app, logs } = testCompanion(up);
  const from = logs.length;
  const { tokenOnboarding } = await created(app, createBody());
  const lines = logs.slice(from).map((l) => JSON.parse(l) as Record<string, unknown>);
  const requestLines = lines.filter((l) => l.msg === 'request' && l.method === 'POST' && l.path === '/v1/onboardings');
  assert.equal(requestLines.length, 1, JSON.stringify(lines));
  const line = requestLines[0]!;
  assert.deepEqual(
    { level: line.level, status: line.status, tokenOnboarding: line.tokenOnboarding, taxId: line.taxId },
    { level: 'info', status: 201, tokenOnboarding, taxId: '529.***.***-25' },
  );
  // No second line for the same creation.
  assert.deepEqual(
    lines.filter((l) => JSON.stringify(l).includes(tokenOnboarding)),
    [line],
  );
  assert.ok(!JSON.stringify(lines).includes(CPF_APPROVED), 'the tax id only masked');
  await app.close();
});
