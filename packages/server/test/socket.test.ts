/** Over a real socket: the 413 reaches the client of an oversized body, and shutdown closes streams. */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { randomBytes } from 'node:crypto';
import { maxCreateBodyBytes } from '@onboarding-kit/contract';
import { serveCompanion, createJsonLogger } from '@onboarding-kit/server';
import { WEBHOOK_KEY } from './helpers/companion.js';
import { sseReader } from '@onboarding-kit/testing/sse-reader';
import { IT_CLIENT, IT_SECRET, startStack, waitUntil, type Stack } from '@onboarding-kit/testing/stack';
import { BodyBuffers } from '../src/transport/body-buffers.js';

// The upstream is the sandbox (its own webhooks go to the stack's companion, not to these).
let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(() => stack.close());

/** Sends `total` bytes in chunks (optionally without Content-Length) and collects the answer. */
function sendLarge(
  url: string,
  total: number,
  chunked: boolean,
  pauseMs = 0,
): Promise<{ status: number; body: string; clientError?: string }> {
  return new Promise((resolve, reject) => {
    let answer: { status: number; body: string } | undefined;
    let sendingOver = false;
    const finish = () => {
      if (answer && sendingOver) resolve({ ...answer, ...(clientError && { clientError }) });
    };
    const req = request(`${url}/v1/onboardings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(chunked ? {} : { 'content-length': String(total) }) },
    });
    let clientError: string | undefined;
    req.on('error', (e) => {
      clientError = (e as NodeJS.ErrnoException).code ?? e.message;
    });
    req.on('close', () => {
      sendingOver = true;
      finish();
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => {
        answer = { status: res.statusCode ?? 0, body };
        finish();
      });
      res.on('error', reject);
    });
    const chunk = Buffer.alloc(pauseMs ? 16 * 1024 : 64 * 1024, 0x41);
    chunk.write('{"cpf":"529.982.247-25","name":"');
    let sent = 0;
    const pump = () => {
      while (sent < total) {
        const n = Math.min(chunk.length, total - sent);
        sent += n;
        if (clientError) return;
        const more = req.write(n === chunk.length ? chunk : chunk.subarray(0, n));
        // A slow sender keeps writing long after the 413 came back.
        if (pauseMs) return void setTimeout(pump, pauseMs);
        if (!more) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

/**
 * Sizes well past what the loopback socket buffers hold (Linux lets a receive buffer grow to
 * tcp_rmem's maximum, 32 MiB on common kernels, plus the sender's 4 MiB): a body that fits in the
 * buffers is taken in whole by the kernel whether or not the server reads it, so only a bigger one
 * shows whether the server drains after refusing or hangs up on unread data (a reset that can
 * destroy the 413 before the client reads it).
 */
const PAST_SOCKET_BUFFERS = 96 * 1024 * 1024;
const variants = [
  ['small limit, chunked', 64 * 1024, true, 0, undefined],
  ['small limit, chunked, larger than the socket buffers', 64 * 1024, true, 0, PAST_SOCKET_BUFFERS],
  ['default limit, Content-Length', undefined, false, 0, undefined],
  ['default limit, Content-Length, larger than the socket buffers', undefined, false, 0, PAST_SOCKET_BUFFERS],
  ['slow sender', 64 * 1024, false, 15, undefined],
] as const;
for (const [label, imageMaxBytes, chunked, pauseMs, size] of variants) {
  test(`an oversized body (${size ? `${size / 1024 / 1024} MiB` : '3x the limit'}, ${label}) gets the 413 JSON, no reset, and is not sent upstream`, async () => {
    const served = await serveCompanion({
      port: 0,
      baseUrl: stack.sandboxUrl,
      client: IT_CLIENT,
      secret: IT_SECRET,
      webhookKey: WEBHOOK_KEY,
      logger: createJsonLogger({ sink: () => {} }),
      ...(imageMaxBytes && { imageMaxBytes }),
    });
    try {
      const before = stack.upstreamCalls.length;
      const limit = maxCreateBodyBytes(imageMaxBytes);
      const answer = await sendLarge(served.url, size ?? 3 * limit, chunked, pauseMs);
      assert.equal(answer.status, 413);
      assert.equal(JSON.parse(answer.body).error.code, 'payload_too_large');
      assert.equal(answer.clientError, undefined, 'the client saw no connection error');
      assert.equal(stack.upstreamCalls.length, before);
      // The same server still answers afterwards.
      assert.equal((await fetch(`${served.url}/v1/health`)).status, 200);
    } finally {
      await served.close();
    }
  });
}

test('serveCompanion: close() ends open event streams and the server', async () => {
  const served = await serveCompanion({
    port: 0,
    baseUrl: stack.sandboxUrl,
    client: IT_CLIENT,
    secret: IT_SECRET,
    webhookKey: WEBHOOK_KEY,
    logger: createJsonLogger({ sink: () => {} }),
    poll: { firstDelayMs: 60_000 },
  });
  const res = await fetch(`${served.url}/v1/onboardings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ cpf: '52998224725', images: { documentFront: '/9j/4AAQ', selfie: '/9j/4AAQ' } }),
  });
  assert.equal(res.status, 201);
  const o = (await res.json()) as { tokenOnboarding: string; accessKey: string };
  const stream = await fetch(`${served.url}/v1/onboardings/${o.tokenOnboarding}/events`, {
    headers: { authorization: `Bearer ${o.accessKey}` },
  });
  const sse = sseReader(stream.body!);
  // The stream registers itself before it sends the current state.
  await sse.until(/IN_PROCESS/);
  assert.equal(served.app.openStreams(), 1);
  await served.close();
  await sse.toEnd();
  assert.equal(served.app.openStreams(), 0);
});

/** Posts `body` as `pieces` separate writes a few ms apart (each a read of its own on the server's side). */
function postInPieces(url: string, body: Buffer, pieces: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/v1/onboardings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    const step = Math.ceil(body.length / pieces);
    let at = 0;
    const next = () => {
      if (at >= body.length) return void req.end();
      req.write(body.subarray(at, (at += step)));
      setTimeout(next, 3);
    };
    next();
  });
}

test('a creation that arrives in many pieces is refused for one stray character anywhere in an image (on the edge of a piece, inside one, in the last), and taken whole when clean', async () => {
  const served = await serveCompanion({
    port: 0,
    baseUrl: stack.sandboxUrl,
    client: IT_CLIENT,
    secret: IT_SECRET,
    webhookKey: WEBHOOK_KEY,
    logger: createJsonLogger({ sink: () => {} }),
    poll: { firstDelayMs: 60_000 },
  });
  try {
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(60_000)]).toString('base64');
    const json = (images: Record<string, string>) => Buffer.from(JSON.stringify({ cpf: '529.982.247-25', name: 'Maria Silva', images }));
    const clean = await postInPieces(served.url, json({ documentFront: jpeg, documentBack: jpeg, selfie: jpeg }), 23);
    assert.equal(clean.status, 201, clean.body);
    const before = stack.upstreamCalls.length;
    // Places on a block's edge, inside a block, and in the last, partial piece of the body.
    for (const [role, at] of [
      ['documentFront', 4096],
      ['documentBack', 30_001],
      ['selfie', 50_000],
      ['selfie', jpeg.length - 6],
    ] as const) {
      const bad = `${jpeg.slice(0, at)}-${jpeg.slice(at + 1)}`;
      const answer = await postInPieces(served.url, json({ documentFront: jpeg, documentBack: jpeg, selfie: jpeg, [role]: bad }), 23);
      assert.equal(answer.status, 400, `${role} at ${at}`);
      const error = JSON.parse(answer.body).error;
      assert.deepEqual([error.code, error.field], ['invalid_image', `images.${role}`], `${role} at ${at}`);
    }
    assert.equal(stack.upstreamCalls.length, before, 'nothing refused went upstream');
  } finally {
    await served.close();
  }
});

test('a creation body buffer goes back wiped only after the upstream got its images, and the next creation is read into it', async () => {
  const takes: ArrayBufferLike[] = [];
  const gives: { buffer: ArrayBufferLike; wiped: boolean }[] = [];
  const { take, give } = BodyBuffers.prototype;
  BodyBuffers.prototype.take = function (this: BodyBuffers, size: number) {
    const b = take.call(this, size);
    takes.push(b.buffer);
    return b;
  };
  BodyBuffers.prototype.give = function (this: BodyBuffers, bytes: Uint8Array) {
    give.call(this, bytes);
    gives.push({ buffer: bytes.buffer, wiped: bytes.every((x) => x === 0) });
  };
  const served = await serveCompanion({
    port: 0,
    baseUrl: stack.sandboxUrl,
    client: IT_CLIENT,
    secret: IT_SECRET,
    webhookKey: WEBHOOK_KEY,
    logger: createJsonLogger({ sink: () => {} }),
    poll: { firstDelayMs: 60_000 },
  });
  try {
    const sent: string[] = [];
    for (let i = 0; i < 2; i++) {
      const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(200_000)]).toString('base64');
      sent.push(jpeg);
      const answer = await postInPieces(
        served.url,
        Buffer.from(JSON.stringify({ cpf: '529.982.247-25', images: { documentFront: jpeg, selfie: jpeg } })),
        4,
      );
      assert.equal(answer.status, 201, answer.body);
      // What reached the upstream is this creation's own images, whole: the buffer was not wiped or reused under them.
      const call = stack.upstreamCalls.at(-1)!;
      const files = (call.body as { documentFiles: { document: string }[] }).documentFiles;
      assert.deepEqual(
        files.map((f) => f.document),
        [`data:image/jpeg;base64,${jpeg}`, `data:image/jpeg;base64,${jpeg}`],
      );
      await waitUntil(() => gives.length === i + 1, 5_000);
    }
    assert.equal(takes.length, 2);
    assert.equal(takes[1], takes[0], "the second body was read into the first one's buffer");
    assert.deepEqual(
      gives.map((g) => g.wiped),
      [true, true],
    );
    assert.notEqual(sent[0], sent[1]);
  } finally {
    BodyBuffers.prototype.take = take;
    BodyBuffers.prototype.give = give;
    await served.close();
  }
});
