/**
 * The onboarding event stream written straight to Node's response (serve.ts, transport/direct-answer.ts)
 * against the web-stream fallback: over real sockets, the same bytes and headers (middlewares'
 * included), the Node path really taken, a page leaving cleans up, a page that stops reading is let go.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { listen, type ListeningServer } from '@onboarding-kit/server';
import { eventually, withDeadline } from '@onboarding-kit/testing/deadline';
import { settle } from '@onboarding-kit/testing/manual-clock';
import { sseReader } from '@onboarding-kit/testing/sse-reader';
import { startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { createBody } from './helpers/fixtures.js';
import { created, testCompanion, webhook } from './helpers/companion.js';
import { KEEP_ALIVE_SLICE, KeepAliveTick, MAX_UNREAD_BYTES } from '../src/transport/event-stream.js';
import { OnboardingEvents, type OnboardingEventDeps } from '../src/onboardings/onboarding-events.js';
import { StreamRegistry } from '../src/relay/stream-registry.js';
import { silentLogger } from '../src/logger.js';
import type { OnboardingRecord } from '../src/store/store.js';

const ORIGIN = 'https://shop.example';
let up: FakeUpstream;
before(async () => {
  up = await startFakeUpstream();
});
after(() => up.close());

interface RawStream {
  status: Promise<number>;
  headers: Promise<IncomingHttpHeaders>;
  /** The body as received so far. */
  text(): string;
  /** Resolves with the whole body when the server ends the stream. */
  ended: Promise<string>;
  /** Resolves when the connection is closed, for whatever reason. */
  closed: Promise<void>;
  destroy(): void;
}

/** Reads an event stream with node:http, as a page from ORIGIN would (no keep-alive agent: one socket per stream). */
function openRaw(url: string, token: string, key: string): RawStream {
  let body = '';
  let onHeaders!: (h: { status: number; headers: IncomingHttpHeaders }) => void;
  let onEnd!: (text: string) => void;
  let onClosed!: () => void;
  let onError!: (e: unknown) => void;
  const head = new Promise<{ status: number; headers: IncomingHttpHeaders }>((resolve, reject) => {
    onHeaders = resolve;
    onError = reject;
  });
  const ended = new Promise<string>((resolve) => (onEnd = resolve));
  const closed = new Promise<void>((resolve) => (onClosed = resolve));
  const req = request(`${url}/v1/onboardings/${token}/events`, {
    agent: false,
    headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream', origin: ORIGIN },
  });
  req.on('response', (res) => {
    onHeaders({ status: res.statusCode ?? 0, headers: res.headers });
    res.setEncoding('utf8');
    res.on('data', (d: string) => (body += d));
    res.on('end', () => onEnd(body));
    res.on('error', () => undefined);
  });
  req.on('error', (e) => onError(e));
  req.on('close', () => onClosed());
  req.end();
  return {
    status: head.then((h) => h.status),
    headers: head.then((h) => h.headers),
    text: () => body,
    ended,
    closed,
    destroy: () => req.destroy(),
  };
}

/** `app.fetch` behind listen(), remembering whether each answer the app gave had a body (the web path) or none (the Node path). */
async function serve(
  fetch: (req: Request, env: unknown) => Response | Promise<Response>,
  passEnv: boolean,
): Promise<{ server: ListeningServer; bodies: boolean[] }> {
  const bodies: boolean[] = [];
  const server = await listen(
    async (req, env) => {
      const res = await fetch(req, passEnv ? env : undefined);
      if (new URL(req.url).pathname.endsWith('/events')) bodies.push(res.body !== null);
      return res;
    },
    { port: 0 },
  );
  return { server, bodies };
}

const withoutPerRequest = (h: IncomingHttpHeaders) => {
  const { date: _date, 'x-request-id': _id, ...rest } = h;
  return rest;
};

test("the stream written straight to the socket: same bytes and headers as the web stream and app.request(), middlewares' headers included", async (t) => {
  const { app } = testCompanion(up, { allowedOrigins: [ORIGIN], sse: { keepAliveMs: 600_000, retryMs: 1500 } });
  const direct = await serve(app.fetch, true);
  const web = await serve(app.fetch, false);
  t.after(async () => {
    await app.close();
    await direct.server.close({ graceMs: 100 });
    await web.server.close({ graceMs: 100 });
  });
  const o = await created(app, createBody());
  const viaNode = openRaw(direct.server.url, o.tokenOnboarding, o.accessKey);
  const viaWeb = openRaw(web.server.url, o.tokenOnboarding, o.accessKey);
  const viaRequest = sseReader(
    (
      await app.request(`/v1/onboardings/${o.tokenOnboarding}/events`, {
        headers: { authorization: `Bearer ${o.accessKey}`, origin: ORIGIN },
      })
    ).body!,
  );
  assert.equal(await withDeadline(viaNode.status, "the Node path's headers"), 200);
  assert.equal(await withDeadline(viaWeb.status, "the web path's headers"), 200);
  await eventually(
    () => viaNode.text().includes('IN_PROCESS') && viaWeb.text().includes('IN_PROCESS'),
    'the current state on both sockets',
  );
  await viaRequest.until(/IN_PROCESS/);
  assert.equal(app.openStreams(), 3);
  // The Node path answered the app with no body (the events went to the socket); the fallback with a web stream.
  assert.deepEqual(direct.bodies, [false], 'the stream behind serve.ts went straight to the Node response');
  assert.deepEqual(web.bodies, [true], 'without a Node response the stream is a web body');

  // The upstream decides; its webhook is checked against the report before it counts.
  up.reportStatus.set(o.tokenOnboarding, { status: 'APPROVED' });
  await webhook(app, { tokenOnboarding: o.tokenOnboarding, status: 'APPROVED' });
  const [node, viaWebText, requestText] = await withDeadline(
    Promise.all([viaNode.ended, viaWeb.ended, viaRequest.toEnd()]),
    'all three streams to end after the terminal status',
  );
  assert.match(
    node,
    /^retry: 1500\n\nevent: status\ndata: \{[^\n]*"IN_PROCESS"[^\n]*\}\n\nevent: status\ndata: \{[^\n]*"APPROVED"[^\n]*\}\n\n$/,
  );
  assert.equal(node, viaWebText, 'the same bytes as the web stream over a socket');
  assert.equal(node, requestText, 'the same bytes as app.request()');

  const nodeHeaders = await viaNode.headers;
  assert.deepEqual(withoutPerRequest(nodeHeaders), withoutPerRequest(await viaWeb.headers), 'the same headers on both paths');
  assert.match(nodeHeaders['content-type'] ?? '', /^text\/event-stream/);
  assert.equal(nodeHeaders['cache-control'], 'no-cache');
  assert.equal(nodeHeaders['transfer-encoding'], 'chunked');
  assert.equal(nodeHeaders['x-accel-buffering'], 'no');
  // Set by middlewares after the route answered: the allowlist's CORS headers, the security headers, the request id.
  assert.equal(nodeHeaders['access-control-allow-origin'], ORIGIN);
  assert.match(String(nodeHeaders['access-control-expose-headers']), /X-Request-Id/);
  assert.match(String(nodeHeaders.vary), /Origin/);
  assert.equal(nodeHeaders['x-content-type-options'], 'nosniff');
  assert.ok(nodeHeaders['x-frame-options']);
  assert.match(String(nodeHeaders['x-request-id']), /\S/);
  await eventually(() => app.openStreams() === 0, 'the ended streams are still counted as open');
});

test("an open stream on the Node path keeps neither header block: the request's as received and the answer's once sent are let go, and the stream goes on", async (t) => {
  const { app } = testCompanion(up, { allowedOrigins: [ORIGIN], sse: { keepAliveMs: 600_000, retryMs: 1500 } });
  let held: { incoming: IncomingMessage; outgoing: ServerResponse } | undefined;
  const server = await listen(
    (req, env) => {
      if (new URL(req.url).pathname.endsWith('/events')) held = env as typeof held;
      return app.fetch(req, env);
    },
    { port: 0 },
  );
  t.after(async () => {
    await app.close();
    await server.close({ graceMs: 100 });
  });
  const o = await created(app, createBody());
  const stream = openRaw(server.url, o.tokenOnboarding, o.accessKey);
  await eventually(() => stream.text().includes('IN_PROCESS'), 'the current state');
  const headers = await stream.headers;
  // What the page got is whole: the block was let go after it went out.
  assert.equal(headers['x-frame-options'], 'SAMEORIGIN');
  assert.equal(headers['access-control-allow-origin'], ORIGIN);
  const { incoming, outgoing } = held!;
  assert.deepEqual(incoming.rawHeaders, [], 'the request headers as received are still held');
  assert.deepEqual(incoming.headers, {}, 'the parsed request headers are still held');
  assert.equal(outgoing.headersSent, true);
  const kept = (outgoing as unknown as { _header: string })._header;
  assert.ok(kept.length < 32, `the answer's header block is still held (${kept.length} characters)`);
  assert.doesNotMatch(kept, /x-request-id|text\/event-stream/i);

  // The upstream decides; its webhook is checked against the report before it counts.
  up.reportStatus.set(o.tokenOnboarding, { status: 'APPROVED' });
  await webhook(app, { tokenOnboarding: o.tokenOnboarding, status: 'APPROVED' });
  const body = await withDeadline(stream.ended, 'the stream to end after the terminal status');
  assert.match(body, /"IN_PROCESS"[\s\S]*"APPROVED"[^\n]*\n\n$/);
  await eventually(() => server.inFlight() === 0, 'the ended stream is still in flight');
});

test("a page leaving the Node path's stream ends it: registry entry gone; the connection counted no more", async (t) => {
  const { app } = testCompanion(up, { sse: { keepAliveMs: 600_000, retryMs: 1500 } });
  const direct = await serve(app.fetch, true);
  t.after(async () => {
    await app.close();
    await direct.server.close({ graceMs: 100 });
  });
  const o = await created(app, createBody());
  const streams = Array.from({ length: 3 }, () => openRaw(direct.server.url, o.tokenOnboarding, o.accessKey));
  await eventually(() => streams.every((s) => s.text().includes('IN_PROCESS')), 'the current state on every stream');
  assert.equal(app.openStreams(), 3);
  assert.equal(direct.server.inFlight(), 3);
  for (const s of streams) s.destroy();
  await eventually(() => app.openStreams() === 0, 'streams whose page left are still registered');
  await eventually(() => direct.server.inFlight() === 0, 'the left connections are still in flight');
});

/** Deps of one stream whose state is `size` bytes of JSON, changed on each poke; counts subscriptions. */
function fakeDeps(size: number) {
  let version = 0;
  const listeners = new Set<() => void>();
  const tick = new KeepAliveTick(600_000);
  const streams = new StreamRegistry();
  const deps: OnboardingEventDeps = {
    read: async () => ({ status: 'IN_PROCESS', version: version++ }) as unknown as OnboardingRecord,
    subscribe: (_t, listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    state: (r) => ({ v: (r as unknown as { version: number }).version, pad: 'x'.repeat(size) }),
    streams,
    tick,
    retryMs: 1000,
    log: silentLogger,
  };
  return {
    deps,
    listeners,
    tick,
    streams,
    poke: () => {
      for (const l of [...listeners]) l();
    },
  };
}

test('a page that stops reading (Node path) is cut once more than MAX_UNREAD_BYTES wait, and everything let go', async (t) => {
  const f = fakeDeps(64 * 1024);
  let response: ServerResponse | undefined;
  const server = createServer((_req, res: ServerResponse) => {
    response = res;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    new OnboardingEvents('tok', f.deps, 'request-1').writeTo(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
  socket.on('error', () => undefined);
  t.after(() => socket.destroy());
  socket.write('GET /events HTTP/1.1\r\nHost: x\r\n\r\n');
  // Never read: what the server writes fills the kernel's buffers, then the response's own.
  socket.pause();
  await eventually(() => f.listeners.size === 1, 'the stream did not subscribe');
  assert.equal(f.streams.size, 1);
  assert.equal(f.tick.size, 1);
  await eventually(
    () => {
      f.poke();
      return f.listeners.size === 0;
    },
    'a page that reads nothing is still subscribed',
    { everyMs: 20 },
  );
  assert.equal(f.streams.size, 0, 'registry entry removed');
  assert.equal(f.tick.size, 0, 'keep-alive tick let go');
  assert.ok(response?.destroyed, 'the unread connection was cut (what it queued goes with it)');
});

test('a web stream nobody reads is closed once more than MAX_UNREAD_BYTES wait, and everything let go', async () => {
  const f = fakeDeps(4 * 1024);
  const body = new OnboardingEvents('tok', f.deps, 'request-1').webStream();
  await eventually(() => f.listeners.size === 1, 'the stream did not subscribe');
  for (let i = 0; i < (MAX_UNREAD_BYTES / 4096) * 2 && f.listeners.size > 0; i++) {
    f.poke();
    // The stream reads and queues the new state in promise turns alone: let them run out.
    await settle();
  }
  assert.equal(f.listeners.size, 0, 'unsubscribed once too much was unread');
  assert.equal(f.streams.size, 0);
  assert.equal(f.tick.size, 0);
  // What was queued can still be read, then the stream ends: bounded, not grown without end.
  const text = await withDeadline(new Response(body).text(), 'the closed stream to end');
  assert.ok(text.length <= MAX_UNREAD_BYTES + 8 * 1024, `at most the limit and one event were queued (${text.length} B)`);
  assert.match(text, /^retry: 1000\n\n/);
});

test('a keep-alive pass over many streams yields to the event loop between slices, and reaches every stream', async () => {
  const tick = new KeepAliveTick(20);
  const total = KEEP_ALIVE_SLICE * 4 + 7;
  const calls: number[] = [];
  let seenAfterFirstTurn: number | undefined;
  const streams = Array.from({ length: total }, (_, i) => ({
    keepAlive() {
      // Scheduled from inside the first slice: runs before the next slice does, if there is a next turn at all.
      if (calls.length === 0) setImmediate(() => (seenAfterFirstTurn = calls.length));
      calls.push(i);
    },
  }));
  for (const s of streams) tick.add(s);
  try {
    await eventually(() => calls.length >= total, 'not every stream got its keep-alive');
    assert.equal(seenAfterFirstTurn, KEEP_ALIVE_SLICE, 'the first turn wrote one slice, then let other work run');
    assert.deepEqual(
      calls.slice(0, total),
      streams.map((_, i) => i),
      'one pass: every stream once, in order',
    );
  } finally {
    for (const s of streams) tick.delete(s);
  }
  assert.equal(tick.size, 0);
});
