/**
 * Creation bodies read into buffers used again (transport/body-buffers.ts): a buffer goes back only
 * once nothing reads it (the upstream request that carried its images written out, or torn
 * down: node-transport's `onBodyDone`), wiped; nothing it did not make is ever kept or wiped.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { settle } from '@onboarding-kit/testing/manual-clock';
import { BodyBuffers } from '../src/transport/body-buffers.js';
import { nodeTransport } from '../src/upstream/node-transport.js';
import { EncodedJson } from '../src/upstream/upstream-client.js';

test('a buffer given back is wiped and handed out again for a body that fits; at most maxKept are kept', () => {
  const pool = new BodyBuffers({ maxKept: 2, maxBytes: 1 << 20 });
  const a = pool.take(100_000);
  assert.equal(a.length, 100_000);
  a.fill(0x41);
  pool.give(a);
  assert.ok(
    a.every((x) => x === 0),
    'wiped',
  );
  const b = pool.take(90_000);
  assert.equal(b.buffer, a.buffer, 'the same memory again');
  assert.equal(b.length, 90_000);
  const c = pool.take(100_000);
  assert.notEqual(c.buffer, a.buffer);
  const d = pool.take(100_000);
  pool.give(b);
  pool.give(c);
  pool.give(d);
  assert.equal(pool.kept.buffers, 2);
  // Giving the same buffer twice keeps it once.
  const e = pool.take(10);
  pool.give(e);
  pool.give(e);
  assert.equal(pool.kept.buffers, 2);
});

test('a body over maxBytes gets its own buffer, never kept; memory the pool did not make is left alone', () => {
  const pool = new BodyBuffers({ maxKept: 4, maxBytes: 1 << 16 });
  const big = pool.take(1 << 17);
  big.fill(1);
  pool.give(big);
  assert.equal(pool.kept.buffers, 0);
  // A small Buffer lives in Node's shared pool: never wiped, never adopted.
  const shared = Buffer.from('not ours');
  pool.give(shared);
  assert.equal(shared.toString(), 'not ours');
  const foreign = new Uint8Array(1000).fill(7);
  pool.give(foreign);
  assert.ok(foreign.every((x) => x === 7));
  assert.equal(pool.kept.buffers, 0);
});

/** A server whose handler gets each request; answers are its business. */
async function server(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const s = createServer(handler);
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        s.closeAllConnections();
        s.close(() => resolve());
      }),
  };
}

test('the transport says the body is done once it is all written, not when the answer comes first', async () => {
  // Past what the loopback socket buffers take in (tcp_rmem's maximum plus the sender's): the rest waits in the process.
  const body = Buffer.alloc(96 * 1024 * 1024, 0x41);
  let resume: (() => void) | undefined;
  // Answers at once, then reads the body only when told: the answer arrives long before the body is written.
  const up = await server((req, res) => {
    req.pause();
    // The answer is whole by its Content-Length, but the response is not ended: once it ends,
    // node's server reads (and drops) whatever of the request it has not read, unless its reading
    // had started already, a race that let the body be written early.
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '11' });
    res.write('{"ok":true}');
    resume = () => {
      req.once('end', () => res.end());
      req.resume();
    };
  });
  try {
    let done = 0;
    let bodyDone!: () => void;
    const written = new Promise<void>((r) => (bodyDone = r));
    const res = await nodeTransport()(`${up.url}/x`, {
      method: 'POST',
      headers: {},
      body: [body],
      timeoutMs: 10_000,
      onBodyDone: () => void (done++, bodyDone()),
    });
    assert.equal(res.status, 200);
    // What the answer's arrival sets off has run at this point; the server reads nothing until resumed.
    await settle();
    assert.equal(done, 0, 'the body is still being written: not done');
    resume!();
    await written;
    assert.equal(done, 1);
  } finally {
    await up.close();
  }
});

test('the transport says the body is done once when the call is torn down (a timeout) or cannot start', async () => {
  const up = await server((req) => req.pause());
  try {
    let done = 0;
    let bodyDone!: () => void;
    const letGo = new Promise<void>((r) => (bodyDone = r));
    await assert.rejects(
      nodeTransport()(`${up.url}/x`, {
        method: 'POST',
        headers: {},
        body: [randomBytes(8 * 1024 * 1024)],
        timeoutMs: 200,
        onBodyDone: () => void (done++, bodyDone()),
      }),
      { name: 'TimeoutError' },
    );
    await letGo;
    await settle();
    assert.equal(done, 1, 'once');
    let bad = 0;
    await assert.rejects(
      nodeTransport()('not a url', { method: 'POST', headers: {}, body: [Buffer.from('{}')], timeoutMs: 1000, onBodyDone: () => bad++ }),
    );
    assert.equal(bad, 1);
  } finally {
    await up.close();
  }
});

test('EncodedJson.released waits for every call that holds the pieces, and for settle()', async () => {
  const encoded = new EncodedJson([Buffer.from('{}')]);
  let released = false;
  void encoded.released.then(() => (released = true));
  const first = encoded.hold();
  const second = encoded.hold();
  first();
  first();
  encoded.settle();
  await new Promise((r) => setImmediate(r));
  assert.equal(released, false, 'one call still holds them');
  second();
  await new Promise((r) => setImmediate(r));
  assert.equal(released, true);
});
