import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer as netServer, type Server, type Socket } from 'node:net';
import { createServer as tlsServer, type TLSSocket } from 'node:tls';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '@onboarding-kit/testing/manual-clock';
import { AnswerReader, KeepAliveClient } from '../src/upstream/keep-alive-client.js';

// A raw server on a real loopback socket: each request's head and body as it came, the
// connection it came on, and an answer written byte for byte as the test says.
interface Seen {
  head: string;
  body: string;
  connection: number;
}
type Answer = (seen: Seen, socket: Socket) => void;

async function rawServer(answer: Answer, make: (onSocket: (s: Socket) => void) => Server = (f) => netServer(f)) {
  const seen: Seen[] = [];
  const sockets: Socket[] = [];
  let connections = 0;
  const server = make((socket) => {
    const connection = ++connections;
    sockets.push(socket);
    let buf = Buffer.alloc(0);
    socket.on('error', () => {});
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buf.toString('latin1', 0, end);
        const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (buf.length < end + 4 + length) return;
        const s = { head, body: buf.toString('utf8', end + 4, end + 4 + length), connection };
        buf = buf.subarray(end + 4 + length);
        seen.push(s);
        answer(s, socket);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    seen,
    sockets,
    connections: () => connections,
    port,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

const clients: KeepAliveClient[] = [];
const newClient = (options?: ConstructorParameters<typeof KeepAliveClient>[0]) => {
  const c = new KeepAliveClient(options);
  clients.push(c);
  return c;
};
after(() => {
  for (const c of clients) c.close();
});

const ok = (body: string, extra = '') =>
  `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;
const call = (c: KeepAliveClient, port: number, over: Partial<Parameters<KeepAliveClient['request']>[0]> = {}) =>
  c.request({
    method: 'GET',
    url: new URL(`http://127.0.0.1:${port}/path?q=1`),
    headers: { accept: 'application/json' },
    timeoutMs: 5_000,
    ...over,
  });
const text = (a: { body: Buffer | null }) => a.body?.toString('utf8') ?? null;

/** Resolves once `condition` holds, looking again after each turn of the event loop; the test's own timeout is the limit. */
async function eventually(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setImmediate(r));
}

/** Resolves once the socket has closed, or has read its peer's end. */
const ended = (s: Socket) =>
  s.destroyed || s.readableEnded ? Promise.resolve() : Promise.race([once(s, 'close'), once(s, 'end')]).then(() => undefined);

test('a request goes out as one head and its pieces; the answer comes back whole; the socket is reused', async () => {
  const srv = await rawServer((s, socket) => socket.write(ok(`{"got":${JSON.stringify(s.body)}}`)));
  try {
    const c = newClient();
    let bodyDone = 0;
    const a = await call(c, srv.port, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer t0k3n' },
      body: [Buffer.from('{"a":'), new TextEncoder().encode('"é"'), Buffer.from('}')],
      onBodyDone: () => bodyDone++,
    });
    assert.equal(a.status, 200);
    assert.equal(text(a), '{"got":"{\\"a\\":\\"é\\"}"}');
    assert.deepEqual(a.rawHeaders.slice(0, 2), ['content-type', 'application/json']);
    assert.equal(bodyDone, 1);
    const head = srv.seen[0]!.head.split('\r\n');
    assert.equal(head[0], 'POST /path?q=1 HTTP/1.1');
    assert.ok(head.includes(`host: 127.0.0.1:${srv.port}`));
    assert.ok(head.includes('authorization: Bearer t0k3n'));
    assert.ok(head.includes(`content-length: ${Buffer.byteLength('{"a":"é"}')}`));
    assert.equal(c.idleCount, 1);
    await call(c, srv.port);
    await call(c, srv.port);
    assert.equal(srv.connections(), 1, 'three calls, one connection');
    assert.match(srv.seen[1]!.head, /^GET \/path\?q=1 HTTP\/1\.1\r\n/);
    assert.doesNotMatch(srv.seen[1]!.head, /content-length/i, 'a GET without a body says no length');
  } finally {
    await srv.close();
  }
});

test('an answer read in any pieces: chunked with extensions and trailers, interim answers, every split point', () => {
  const answers: [string, string, number][] = [
    [
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\nX-A: 1\r\n\r\n4;ext=1\r\nWiki\r\n6\r\npedia \r\nE\r\nin \r\n\r\nchunks.\r\n0\r\nTrailer: x\r\n\r\n',
      'Wikipedia in \r\n\r\nchunks.',
      201,
    ],
    ['HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello', 'hello', 200],
    ['HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n', '', 200],
  ];
  for (const [wire, body, status] of answers) {
    const bytes = Buffer.from(wire, 'latin1');
    const splits = [[...bytes].map((b) => Buffer.from([b]))];
    for (let cut = 1; cut < bytes.length; cut++) splits.push([bytes.subarray(0, cut), bytes.subarray(cut)]);
    for (const pieces of splits) {
      const r = new AnswerReader('GET', 65_536);
      for (const p of pieces) r.push(p);
      const at = `pieces ${pieces.map((p) => p.length).join('+')}`;
      assert.ok(r.done, at);
      assert.equal(r.status, status, at);
      assert.equal(r.body()?.toString('latin1'), body, at);
      assert.equal(r.extra, false, at);
      assert.equal(r.reusable, true, at);
    }
  }
});

test('answers without a body (HEAD, 204, 304) complete at their head, and the socket is reused', async () => {
  const srv = await rawServer((s, socket) => {
    if (s.head.startsWith('HEAD')) socket.write('HTTP/1.1 200 OK\r\ncontent-length: 1234\r\n\r\n');
    else if (s.head.includes('/gone')) socket.write('HTTP/1.1 304 Not Modified\r\netag: "x"\r\n\r\n');
    else socket.write('HTTP/1.1 204 No Content\r\n\r\n');
  });
  try {
    const c = newClient();
    const head = await call(c, srv.port, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.body, null);
    const none = await call(c, srv.port);
    assert.equal(none.status, 204);
    assert.equal(none.body, null);
    const gone = await call(c, srv.port, { url: new URL(`http://127.0.0.1:${srv.port}/gone`) });
    assert.equal(gone.status, 304);
    assert.equal(srv.connections(), 1);
  } finally {
    await srv.close();
  }
});

test('an answer framed by the close is complete at the close; Connection: close, HTTP/1.0 and bytes after the answer retire the socket', async () => {
  const srv = await rawServer((s, socket) => {
    if (s.head.includes('/until-close')) socket.end('HTTP/1.1 200 OK\r\n\r\nall of it');
    else if (s.head.includes('/close')) socket.write(ok('closing', 'Connection: close\r\n'));
    else if (s.head.includes('/old')) socket.write('HTTP/1.0 200 OK\r\ncontent-length: 2\r\n\r\nok');
    else if (s.head.includes('/extra')) socket.write(`${ok('one')}HTTP/1.1 200 OK\r\n`);
    else socket.write(ok('fine'));
  });
  try {
    const c = newClient();
    const at = (path: string) => call(c, srv.port, { url: new URL(`http://127.0.0.1:${srv.port}${path}`) });
    assert.equal(text(await at('/until-close')), 'all of it');
    assert.equal(c.idleCount, 0);
    assert.equal(text(await at('/close')), 'closing');
    assert.equal(c.idleCount, 0);
    assert.equal(text(await at('/old')), 'ok');
    assert.equal(c.idleCount, 0);
    assert.equal(text(await at('/extra')), 'one');
    assert.equal(c.idleCount, 0);
    assert.equal(text(await at('/fine')), 'fine');
    assert.equal(c.idleCount, 1);
    assert.equal(srv.connections(), 5, 'each retired socket was replaced by a new one');
  } finally {
    await srv.close();
  }
});

test('a socket the server closed while idle, or idle past idleMs, is not used again', async () => {
  const srv = await rawServer((_s, socket) => socket.write(ok('x')));
  try {
    const clock = new ManualClock();
    const c = newClient({ idleMs: 150, timers: clock });
    await call(c, srv.port);
    assert.equal(c.idleCount, 1);
    srv.sockets[0]!.destroy();
    // The client hears the close on its own socket: the list empties without any call.
    await eventually(() => c.idleCount === 0);
    await call(c, srv.port);
    assert.equal(srv.connections(), 2);
    await clock.advance(149);
    await call(c, srv.port);
    assert.equal(srv.connections(), 2, 'within idleMs: the same connection');
    await clock.advance(150);
    await call(c, srv.port);
    assert.equal(srv.connections(), 3, 'past idleMs: a new connection');
    assert.ok(
      srv.sockets[1]!.destroyed || (await new Promise((r) => srv.sockets[1]!.once('close', () => r(true)))),
      'and the old one is closed',
    );
  } finally {
    await srv.close();
  }
});

test("a server's Keep-Alive timeout shortens the reuse: a second before it, and none when it is a second or less", async () => {
  const srv = await rawServer((s, socket) =>
    socket.write(ok('x', s.head.includes('/short') ? 'Keep-Alive: timeout=1\r\n' : 'keep-alive: max=100, timeout=2\r\n')),
  );
  try {
    const clock = new ManualClock();
    const c = newClient({ idleMs: 10_000, timers: clock });
    await call(c, srv.port, { url: new URL(`http://127.0.0.1:${srv.port}/short`) });
    assert.equal(c.idleCount, 0, 'timeout=1: not kept');
    await call(c, srv.port);
    assert.equal(c.idleCount, 1);
    await clock.advance(999);
    await call(c, srv.port);
    assert.equal(srv.connections(), 2, 'timeout=2: kept, and reused within its second');
    await clock.advance(1_000);
    await call(c, srv.port);
    assert.equal(srv.connections(), 3, 'past timeout=2 less a second: a new connection');
  } finally {
    await srv.close();
  }
});

test('failures: a late answer is a TimeoutError, a cut answer and a bad one are errors, and none leaves its socket behind', async () => {
  let lateArrived!: () => void;
  const late = new Promise<void>((r) => (lateArrived = r));
  const srv = await rawServer((s, socket) => {
    if (s.head.includes('/late')) return lateArrived();
    if (s.head.includes('/cut')) socket.end('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nabc');
    else if (s.head.includes('/bad-status')) socket.write('HTTP/2 200\r\n\r\n');
    else if (s.head.includes('/bad-chunk')) socket.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n');
    else if (s.head.includes('/two-lengths')) socket.write('HTTP/1.1 200 OK\r\ncontent-length: 1\r\ncontent-length: 2\r\n\r\nab');
    else if (s.head.includes('/huge-head')) socket.write(`HTTP/1.1 200 OK\r\nx: ${'a'.repeat(70_000)}`);
  });
  try {
    const clock = new ManualClock();
    const c = newClient({ timers: clock });
    const at = (path: string, timeoutMs = 5_000) => call(c, srv.port, { url: new URL(`http://127.0.0.1:${srv.port}${path}`), timeoutMs });
    let outcome: Error | undefined;
    const lateCall = at('/late', 200).then(
      () => assert.fail('a call the server never answers cannot succeed'),
      (e: Error) => void (outcome = e),
    );
    const failure = () => outcome;
    await late;
    await clock.advance(199);
    assert.equal(failure(), undefined, 'within its time limit the call still waits');
    await clock.advance(1);
    assert.equal(failure()?.name, 'TimeoutError', 'at its time limit the call fails');
    assert.equal(failure()?.message, 'The call took longer than 200 ms.');
    await lateCall;
    await assert.rejects(at('/cut'), /closed the connection before its answer was complete/);
    await assert.rejects(at('/bad-status'), /not valid HTTP\/1\.1: its status line/);
    await assert.rejects(at('/bad-chunk'), /chunk size/);
    await assert.rejects(at('/two-lengths'), /Content-Length/);
    await assert.rejects(at('/huge-head'), /head is too long/);
    assert.equal(c.idleCount, 0);
    // Each failed call closes its connection: the server's side of every one of them ends.
    assert.equal(srv.sockets.length, 6, 'one connection per call');
    await Promise.all(srv.sockets.map(ended));
  } finally {
    await srv.close();
  }
});

test('a header that would change the head is refused before anything is sent; a refused connection is an error with its code', async () => {
  const srv = await rawServer((_s, socket) => socket.write(ok('x')));
  try {
    const c = newClient();
    let bodyDone = 0;
    await assert.rejects(
      call(c, srv.port, { headers: { authorization: 'Bearer a\r\nx-evil: 1' }, onBodyDone: () => bodyDone++ }),
      TypeError,
    );
    await assert.rejects(call(c, srv.port, { headers: { 'bad name': 'x' } }), TypeError);
    assert.equal(bodyDone, 1, 'the body is let go even when nothing is sent');
    assert.equal(srv.connections(), 0);
  } finally {
    await srv.close();
  }
  await assert.rejects(call(newClient(), srv.port), (e: NodeJS.ErrnoException) => e.code === 'ECONNREFUSED');
});

test('https: the exchange goes over TLS with the given CA, and a new connection resumes the TLS session', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'okit-tls-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
  } catch {
    t.skip('openssl is not available to make a certificate');
    return;
  }
  const cert = readFileSync(join(dir, 'cert.pem'));
  const key = readFileSync(join(dir, 'key.pem'));
  const resumed: boolean[] = [];
  const srv = await rawServer(
    (s, socket) => socket.write(ok(`tls ${s.connection}`, s.head.includes('/close') ? 'connection: close\r\n' : '')),
    (f) =>
      tlsServer({ cert, key }, (s: TLSSocket) => {
        resumed.push(s.isSessionReused());
        f(s);
      }),
  );
  try {
    const c = newClient({ tls: { ca: cert } });
    const url = (path: string) => new URL(`https://localhost:${srv.port}${path}`);
    assert.equal(text(await call(c, srv.port, { url: url('/close') })), 'tls 1');
    // TLS 1.3's session tickets come ahead of the answer on the same connection: the client holds one before it reads the answer.
    assert.equal(text(await call(c, srv.port, { url: url('/') })), 'tls 2');
    assert.equal(text(await call(c, srv.port, { url: url('/') })), 'tls 2', 'kept alive over TLS too');
    assert.deepEqual(resumed, [false, true]);
    await assert.rejects(call(newClient(), srv.port, { url: url('/') }), /self-signed|certificate/i);
  } finally {
    await srv.close();
  }
});
