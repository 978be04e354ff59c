/**
 * Nobody can starve creations across instances (issue 29, point 2: "at most a few creations at
 * once per session secret and per address"): two companions behind one load balancer share a
 * Redis store, and one attacker address spreads slow uploads over both. The places are the
 * store's, so together they admit `perClient` creations at once from that address, not
 * `perClient` each; and the places come back when the uploads end.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { createJsonLogger, serveCompanion, type ServedCompanion } from '@onboarding-kit/server';
import { RedisStore } from '../../src/store/index.js';
import { WEBHOOK_KEY } from '../helpers/companion.js';
import { FAKE_CLIENT, FAKE_SECRET, startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.js';
import { createBody } from '../helpers/fixtures.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';

const PER_CLIENT = 4;
const ATTACKER = '127.0.0.41';

let up: FakeUpstream;
let redis: RedisServer;
before(async () => {
  up = await startFakeUpstream();
  redis = await startRedisServer();
});
after(async () => {
  await up.close();
  await redis.stop();
});

async function instance(prefix: string): Promise<ServedCompanion> {
  return serveCompanion({
    port: 0,
    baseUrl: up.url,
    client: FAKE_CLIENT,
    secret: FAKE_SECRET,
    webhookKey: WEBHOOK_KEY,
    rateLimit: 0,
    logger: createJsonLogger({ sink: () => {} }),
    store: await RedisStore.connect(redis.url, { prefix }),
    // A pace no upload breaks within the test: only the per-address places stand between the attacker and the turns.
    creations: { concurrent: 16, graceMs: 60_000, minBytesPerS: 1, bodyTimeoutMs: 60_000, perClient: PER_CLIENT },
  });
}

/** A creation from `from` that declares `length` bytes and sends `sent` of them; its status once answered. */
function upload(url: string, from: string, length: number, sent: string) {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port), localAddress: from });
  socket.on('error', () => {});
  const status = new Promise<number>((resolve) => {
    let text = '';
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
      const code = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (code && text.includes('\r\n\r\n')) resolve(Number(code[1]));
    });
  });
  socket.write(
    `POST /v1/onboardings HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n${sent}`,
  );
  return { socket, status };
}

const answeredWithin = (ms: number, status: Promise<number>) =>
  Promise.race([status, new Promise<null>((resolve) => setTimeout(() => resolve(null), ms))]);

test('two instances on one Redis: one address spreading 12 slow uploads over both holds perClient creations at once in all, and gets its places back when they end', async () => {
  const prefix = `okit-places-${randomUUID().slice(0, 8)}:`;
  const a = await instance(prefix);
  const b = await instance(prefix);
  const uploads: ReturnType<typeof upload>[] = [];
  try {
    for (let i = 0; i < 12; i++) uploads.push(upload((i % 2 ? b : a).url, ATTACKER, 100_000, ' '.repeat(100)));
    const settled = await Promise.all(uploads.map((u) => answeredWithin(2_000, u.status)));
    const held = settled.filter((s) => s === null).length;
    assert.equal(held, PER_CLIENT, `creations under way from one address on both instances together: ${JSON.stringify(settled)}`);
    assert.deepEqual(
      settled.filter((s) => s !== null),
      Array(12 - PER_CLIENT).fill(429),
    );
    assert.equal(a.app.creations().active + b.app.creations().active, PER_CLIENT, 'the turns the attacker holds, on both');

    // A genuine creation from elsewhere is not held up by the attacker's places.
    const body = JSON.stringify(createBody());
    assert.equal(await upload(b.url, '127.0.0.42', Buffer.byteLength(body), body).status, 201);

    // The attacker gives up: its places come back, on either instance.
    for (const u of uploads) u.socket.destroy();
    const deadline = Date.now() + 5_000;
    while (a.app.creations().active + b.app.creations().active > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const again = await Promise.all([a, b, a, b].map((s) => upload(s.url, ATTACKER, Buffer.byteLength(body), body).status));
    assert.deepEqual(again, [201, 201, 201, 201]);
  } finally {
    for (const u of uploads) u.socket.destroy();
    await Promise.all([a.close(), b.close()]);
  }
});
