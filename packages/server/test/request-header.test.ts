/**
 * requestHeader (transport/request-header.ts): on Node it reads the raw header list where it lies and
 * answers as the Fetch API does (every occurrence, trimmed, joined by ", "); elsewhere it is
 * `c.req.header()`. Over a real socket, so Node's own parsing is what is read.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { Hono } from 'hono';
import { listen } from '@onboarding-kit/server';
import { requestHeader } from '../src/transport/request-header.js';

const NAMES = ['authorization', 'content-type', 'x-note', 'absent'];

function app(seen: Record<string, string | undefined>[]) {
  const a = new Hono();
  a.all('*', (c) => {
    seen.push(Object.fromEntries(NAMES.map((n) => [n, requestHeader(c, n)])));
    const web = Object.fromEntries(NAMES.map((n) => [n, c.req.raw.headers.get(n)]));
    return c.json(web);
  });
  return a;
}

/** Sends `head` as written (duplicates and odd spacing kept) and returns the answer's body. */
function raw(port: number, head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (text += d));
    socket.on('end', () => resolve(text.slice(text.indexOf('\r\n\r\n') + 4)));
    socket.on('error', reject);
    socket.write(head);
  });
}

test('on Node: the header as the Fetch API gives it (any case, trimmed, repeats joined), without the web Request', async (t) => {
  const seen: Record<string, string | undefined>[] = [];
  const server = await listen(app(seen).fetch, { port: 0 });
  t.after(() => server.close({ graceMs: 50 }));
  const port = Number(new URL(server.url).port);
  const body = await raw(
    port,
    'GET /x HTTP/1.1\r\nHost: a\r\nAuthorization:   Bearer one \t\r\nX-Note: a\r\nx-note: b\r\nCONTENT-TYPE: application/json\r\nauthorization: Bearer two\r\nConnection: close\r\n\r\n',
  );
  const fromNode = seen[0]!;
  assert.deepEqual(fromNode, {
    authorization: 'Bearer one, Bearer two',
    'content-type': 'application/json',
    'x-note': 'a, b',
    absent: undefined,
  });
  // The same answer the web Request's Headers give (what `c.req.header()` reads elsewhere).
  const chunked = /^[0-9a-f]+\r\n([\s\S]*)\r\n0\r\n/.exec(body);
  assert.deepEqual({ ...fromNode, absent: null }, JSON.parse(chunked ? chunked[1]! : body));
});

test('elsewhere (app.request(): no Node request): c.req.header()', async () => {
  const seen: Record<string, string | undefined>[] = [];
  await app(seen).request('/x', { headers: { authorization: 'Bearer k', 'x-note': ' spaced ' } });
  assert.deepEqual(seen[0], { authorization: 'Bearer k', 'content-type': undefined, 'x-note': 'spaced', absent: undefined });
});

test("a host that hands on a Request of its own (a rewritten Authorization) is read through that Request, not Node's list", async (t) => {
  const seen: Record<string, string | undefined>[] = [];
  const inner = app(seen);
  const server = await listen(
    (req, env) => {
      const headers = new Headers(req.headers);
      headers.set('authorization', 'Bearer rewritten');
      return inner.fetch(new Request(req, { headers }), env);
    },
    { port: 0 },
  );
  t.after(() => server.close({ graceMs: 50 }));
  await raw(Number(new URL(server.url).port), 'GET /x HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer sent\r\nConnection: close\r\n\r\n');
  assert.equal(seen[0]!.authorization, 'Bearer rewritten');
});
