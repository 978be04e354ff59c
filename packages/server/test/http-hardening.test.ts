/**
 * The HTTP layer under the routes: a client that goes away mid-request is an info line, never a
 * 5xx; slow uploads and slow headers are bounded by timeouts (408); what Node and node-server
 * refuse before any route (a malformed request, path or Host header, headers too large) still
 * carries the contract's error shape. And a webhook with a status the contract does not know is
 * acknowledged, not refused: the upstream never resends.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { request, type Server as HttpServer } from 'node:http';
import { connect } from 'node:net';
import { serveCompanion, type ServeOptions, type CompanionOptions } from '@onboarding-kit/server';
import { FAKE_CLIENT, FAKE_SECRET, startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { createBody } from './helpers/fixtures.js';
import { created, testCompanion, webhook, WEBHOOK_KEY } from './helpers/companion.js';
import { logLines } from './helpers/log-lines.js';

let up: FakeUpstream;
before(async () => {
  up = await startFakeUpstream();
});
after(() => up.close());

async function serve(over: Partial<CompanionOptions & ServeOptions> = {}) {
  const log = logLines();
  const served = await serveCompanion({
    port: 0,
    baseUrl: up.url,
    client: FAKE_CLIENT,
    secret: FAKE_SECRET,
    webhookKey: WEBHOOK_KEY,
    rateLimit: 0,
    logger: log.logger,
    poll: { firstDelayMs: 60_000 },
    ...over,
  });
  return { served, lines: log.lines, line: log.line };
}

/** Writes raw bytes on a new connection and reads everything until the server closes it. */
function raw(
  url: string,
  bytes: string,
  options: { stallAfterWrite?: boolean } = {},
): Promise<{ status: number; headers: string; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (data += d));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = data.split('\r\n\r\n', 2);
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), headers: head, body });
    });
    socket.write(bytes);
    if (!options.stallAfterWrite) socket.end();
  });
}

function assertShape(answer: { status: number; headers: string; body: string }, status: number, code: string): void {
  assert.equal(answer.status, status, `${answer.headers}\n\n${answer.body}`);
  assert.match(answer.headers, /content-type: application\/json/i);
  const body = JSON.parse(answer.body) as { error: { code: string; message: string } };
  assert.deepEqual(Object.keys(body), ['error']);
  assert.equal(body.error.code, code);
  assert.equal(typeof body.error.message, 'string');
}

test('a client that closes its connection mid-upload is logged at info as a client abort, never as a 5xx', async () => {
  const { served, lines, line } = await serve();
  try {
    await new Promise<void>((resolve) => {
      const req = request(`${served.url}/v1/onboardings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': '200000' },
      });
      req.on('error', () => resolve());
      // Gone once the companion has the request and is reading its body.
      served.server.once('request', () => req.destroy());
      req.write('{"cpf":"529.982.247-25","images":{"selfie":"');
    });
    // The request's own log line, written once its handling is over, whatever its outcome.
    const abort = await line((l) => l.method === 'POST' && l.path === '/v1/onboardings');
    assert.equal(abort.msg, 'request aborted by the client');
    assert.equal(abort.level, 'info');
    assert.equal(abort.clientAbort, true);
    assert.equal(abort.path, '/v1/onboardings');
    assert.ok(Number(abort.status) < 500, `logged status ${abort.status}`);
    assert.deepEqual(
      lines().filter((l) => l.level === 'error'),
      [],
      'no error line',
    );
    assert.equal((await fetch(`${served.url}/v1/health`)).status, 200, 'the server is unharmed');
  } finally {
    await served.close();
  }
});

test('a slow upload is cut by the request timeout with a 408 in the error shape', async () => {
  const { served, lines } = await serve({ requestTimeoutMs: 1_000 });
  try {
    // The limit as set, and checked often enough (every 250 ms) that it fires near it, not 30 s later.
    const server = served.server as HttpServer & { connectionsCheckingInterval?: number };
    assert.equal(server.requestTimeout, 1_000);
    assert.equal(server.connectionsCheckingInterval, 250);
    const answer = await raw(
      served.url,
      'POST /v1/onboardings HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"cpf":"5',
      { stallAfterWrite: true },
    );
    assertShape(answer, 408, 'invalid_request');
    // Answered by the request timeout: Node's timeout error, refused by the HTTP layer.
    assert.ok(
      lines().some(
        (l) =>
          l.msg === 'request refused by the HTTP layer' &&
          l.code === 'ERR_HTTP_REQUEST_TIMEOUT' &&
          l.httpStatus === 408 &&
          l.level === 'info',
      ),
    );
  } finally {
    await served.close();
  }
});

test('headers that never end are cut by the headers timeout with a 408', async () => {
  const { served } = await serve({ headersTimeoutMs: 500 });
  try {
    const answer = await raw(served.url, 'GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Slow: a', { stallAfterWrite: true });
    assertShape(answer, 408, 'invalid_request');
  } finally {
    await served.close();
  }
});

test('what the HTTP layer refuses before any route carries the error shape', async () => {
  const { served, lines } = await serve();
  try {
    assertShape(await raw(served.url, 'GET /v1/health HTTP/1.1\r\nHost: bad host^name\r\n\r\n'), 400, 'invalid_request');
    assertShape(await raw(served.url, 'GET /v1/health HTTP/1.1\r\n\r\n'), 400, 'invalid_request');
    assertShape(await raw(served.url, 'GET /v1\\health HTTP/1.1\r\nHost: x\r\n\r\n'), 400, 'invalid_request');
    assertShape(await raw(served.url, 'GET v1/health HTTP/1.1\r\nHost: x\r\n\r\n'), 400, 'invalid_request');
    assertShape(await raw(served.url, 'NOT HTTP AT ALL\r\n\r\n'), 400, 'invalid_request');
    assertShape(
      await raw(served.url, `GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
      431,
      'invalid_request',
    );
    // HTTP/1.0 has no Host: simple health checkers still get their answer.
    const old = await raw(served.url, 'GET /v1/health HTTP/1.0\r\n\r\n');
    assert.match(old.headers, /^HTTP\/1\.1 200/);
    assert.deepEqual(JSON.parse(old.body), { status: 'ok', ok: true });
    assert.deepEqual(
      lines().filter((l) => l.level === 'error'),
      [],
    );
    assert.equal((await fetch(`${served.url}/v1/health`)).status, 200);
  } finally {
    await served.close();
  }
});

test('a webhook with a status the contract does not know is acknowledged (2xx) and logged, and changes nothing', async () => {
  const { app, logs } = testCompanion(up);
  const o = await created(app, createBody());
  const res = await webhook(app, { tokenOnboarding: o.tokenOnboarding, status: 'PENDING_DOCUMENTS', fields: [], services: [] });
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { received: true });
  const line = logs
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .find((l) => String(l.msg).includes('status the contract does not know'));
  assert.ok(line);
  assert.equal(line.status, 'PENDING_DOCUMENTS');
  assert.equal(line.tokenOnboarding, o.tokenOnboarding);
  assert.equal((await app.store.get(o.tokenOnboarding))!.status, 'IN_PROCESS');
  // Still refused: a wrong key, and a body that is neither shape.
  assert.equal((await webhook(app, { tokenOnboarding: o.tokenOnboarding, status: 'PENDING' }, 'wrong-key')).status, 401);
  assert.equal((await webhook(app, { hello: 'world' })).status, 400);
  await app.close();
});
