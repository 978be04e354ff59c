/**
 * The pace a creation's body keeps its turn at (transport/body-pace.ts): judged per window from the
 * first, a deadline for the whole, and the web Request's reader (off Node) held to it as well.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { watchPace, windowQuota, type PaceBreach } from '../src/transport/body-pace.js';
import { readLimitedBody } from '../src/transport/limited-body.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function watched(pace: Parameters<typeof watchPace>[0]) {
  const breaches: PaceBreach[] = [];
  const watch = watchPace(pace, (why) => breaches.push(why));
  return { watch, breaches };
}

test('a window is the grace and the measure: its quota is minBytesPerS over its length, at least one byte', () => {
  assert.equal(windowQuota({ minBytesPerS: 4096, graceMs: 2_000, bodyTimeoutMs: 60_000 }), 8192);
  assert.equal(windowQuota({ minBytesPerS: 1, graceMs: 10, bodyTimeoutMs: 60_000 }), 1);
});

test('a body that brings its quota in every window is never judged slow; one window short and it is, once', async () => {
  const pace = { minBytesPerS: 1_000, graceMs: 60, bodyTimeoutMs: 10_000 };
  const steady = watched(pace);
  // Ten times the quota, in small pieces: every window holds plenty, however the timers fall.
  for (let i = 0; i < 24; i++) {
    steady.watch.got(100);
    await sleep(10);
  }
  steady.watch.stop();
  assert.deepEqual(steady.breaches, []);

  const slowing = watched(pace);
  slowing.watch.got(100);
  await sleep(200);
  assert.deepEqual(slowing.breaches, ['too_slow']);
});

test('the whole body within its deadline, whatever its pace; nothing after stop', async () => {
  const late = watched({ minBytesPerS: 1, graceMs: 10_000, bodyTimeoutMs: 50 });
  await sleep(120);
  assert.deepEqual(late.breaches, ['deadline']);
  const done = watched({ minBytesPerS: 1, graceMs: 20, bodyTimeoutMs: 40 });
  done.watch.stop();
  await sleep(80);
  assert.deepEqual(done.breaches, []);
});

test('off Node, a web body that stalls is given up by its pace', async () => {
  let pull = 0;
  const stalled = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pull++ === 0) controller.enqueue(new Uint8Array(10));
      return new Promise(() => {});
    },
  });
  const req = new Request('http://127.0.0.1/', { method: 'POST', body: stalled, duplex: 'half' } as RequestInit);
  const read = await readLimitedBody(req, 1_000, {}, { minBytesPerS: 1_000, graceMs: 50, bodyTimeoutMs: 10_000 });
  assert.deepEqual(read, { ok: false, slow: 'too_slow' });
});
