/**
 * The one body reader (transport/limited-body.ts, transport/json-body.ts) on its own, with streams whose
 * every read is visible: where the limit falls, that a refused body is never gathered, that the
 * rest is drained and the drain gives up on a client that keeps sending or stalls, and how a JSON
 * body is refused (docs/page-api.md#limits-and-configuration).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Hono } from 'hono';
import { settle } from '@onboarding-kit/testing/manual-clock';
import { readLimitedBody } from '../src/transport/limited-body.js';
import { readJsonBody, type JsonBodyOptions } from '../src/transport/json-body.js';
import { CompanionError } from '../src/http/companion-error.js';

/**
 * A request whose body is `chunks`, then (optionally) a stream that never ends; counts reads and
 * cancels. `ended` resolves once the reader is done with it: read to its end, or cancelled.
 */
function streamed(chunks: Uint8Array[], options: { endless?: boolean; headers?: Record<string, string> } = {}) {
  const seen = { pulls: 0, cancelled: false };
  let end!: () => void;
  const ended = new Promise<void>((r) => (end = r));
  let i = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        seen.pulls++;
        if (i < chunks.length) controller.enqueue(chunks[i++]!);
        else if (!options.endless) {
          controller.close();
          end();
        }
        // endless: no data and no end, as a client that stalls
      },
      cancel() {
        seen.cancelled = true;
        end();
      },
    },
    { highWaterMark: 0 },
  );
  const req = new Request('http://companion.test/', { method: 'POST', body, headers: options.headers, duplex: 'half' } as RequestInit);
  return { req, seen, ended };
}

const bytes = (n: number, fill = 0x61) => new Uint8Array(n).fill(fill);

test('a body within the limit comes back whole and in order, across chunks; no body is empty', async () => {
  const { req } = streamed([Uint8Array.of(1, 2), Uint8Array.of(3), Uint8Array.of(4, 5, 6)]);
  const read = await readLimitedBody(req, 6);
  assert.deepEqual(read, { ok: true, bytes: Uint8Array.of(1, 2, 3, 4, 5, 6) });
  assert.deepEqual(await readLimitedBody(new Request('http://companion.test/'), 0), { ok: true, bytes: new Uint8Array(0) });
});

test('exactly the limit fits; one byte more is refused, whatever the chunks', async () => {
  assert.equal((await readLimitedBody(streamed([bytes(5), bytes(5)]).req, 10)).ok, true);
  assert.deepEqual(await readLimitedBody(streamed([bytes(5), bytes(6)]).req, 10), { ok: false });
  assert.deepEqual(await readLimitedBody(streamed([bytes(11)]).req, 10), { ok: false });
});

test('a declared length over the limit is refused before any byte is read; one within it is read', async () => {
  const over = streamed([bytes(4)], { endless: true, headers: { 'content-length': '11' } });
  assert.deepEqual(await readLimitedBody(over.req, 10), { ok: false });
  const within = streamed([bytes(4)], { headers: { 'content-length': '10' } });
  assert.deepEqual(await readLimitedBody(within.req, 10), { ok: true, bytes: bytes(4) });
  const nonsense = streamed([bytes(4)], { headers: { 'content-length': 'many' } });
  assert.equal((await readLimitedBody(nonsense.req, 10)).ok, true);
});

test('a refused body is drained to its end (so the 413 is not lost to a reset), not cancelled', async () => {
  const { req, seen, ended } = streamed([bytes(8), bytes(8), bytes(8), bytes(8)]);
  assert.deepEqual(await readLimitedBody(req, 10), { ok: false });
  await ended;
  assert.equal(seen.pulls, 5, 'every chunk and the end were read');
  assert.equal(seen.cancelled, false);
});

test('the drain gives up on a client that keeps sending past maxDrainBytes', async () => {
  const { req, seen, ended } = streamed(
    Array.from({ length: 50 }, () => bytes(8)),
    { endless: true },
  );
  assert.deepEqual(await readLimitedBody(req, 10, { maxDrainBytes: 32, maxDrainMs: 60_000 }), { ok: false });
  await ended;
  assert.equal(seen.cancelled, true);
  assert.ok(seen.pulls <= 8, `stopped reading after the drain limit (${seen.pulls} reads)`);
});

test('the drain reads up to maxDrainBytes itself: a rest of exactly that size is drained, not cancelled', async () => {
  const { req, seen, ended } = streamed([bytes(8), bytes(8), bytes(8), bytes(8)]);
  assert.deepEqual(await readLimitedBody(req, 10, { maxDrainBytes: 16 }), { ok: false });
  await ended;
  assert.equal(seen.cancelled, false);
  assert.equal(seen.pulls, 5);
});

test('the drain gives up on a client that stalls after maxDrainMs, and not before', async (t) => {
  // The drain's time limit on a clock the test moves.
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { req, seen } = streamed([bytes(16)], { endless: true });
  assert.deepEqual(await readLimitedBody(req, 10, { maxDrainMs: 150 }), { ok: false });
  await settle();
  t.mock.timers.tick(149);
  await settle();
  assert.equal(seen.cancelled, false, 'still waiting for the rest');
  t.mock.timers.tick(1);
  await settle();
  assert.equal(seen.cancelled, true);
});

test('a declared oversize is drained too, within the same limits', async () => {
  const { req, seen, ended } = streamed(
    Array.from({ length: 50 }, () => bytes(8)),
    { endless: true, headers: { 'content-length': '100000' } },
  );
  assert.deepEqual(await readLimitedBody(req, 10, { maxDrainBytes: 32 }), { ok: false });
  await ended;
  assert.equal(seen.cancelled, true);
});

/** readJsonBody behind a one-route app that renders its CompanionError as status + body. */
async function json(body: BodyInit | null, limit: number, options: JsonBodyOptions = {}, headers: Record<string, string> = {}) {
  const app = new Hono();
  app.post('/', async (c) => c.json({ value: (await readJsonBody(c, limit, options)) ?? 'absent' }));
  app.onError((e, c) => (e instanceof CompanionError ? c.json(e.toBody(), e.status) : c.text(String(e), 500)));
  const res = await app.request('/', { method: 'POST', body, headers });
  return { status: res.status, body: (await res.json()) as { value?: unknown; error?: { code: string; message: string } } };
}

test('JSON bodies: parsed within the limit; 413 beyond it, naming the body and the limit', async () => {
  assert.deepEqual(await json('{"a":[1,2]}', 11), { status: 200, body: { value: { a: [1, 2] } } });
  assert.deepEqual(await json('{"a":[1,2]}', 10), {
    status: 413,
    body: { error: { code: 'payload_too_large', message: 'The body is larger than 10 bytes.' } },
  });
  assert.deepEqual(
    (await json('{"a":[1,2]}', 10, { what: 'The webhook body' })).body.error?.message,
    'The webhook body is larger than 10 bytes.',
  );
});

test('JSON bodies: not UTF-8, not JSON, or blank are 400 invalid_json, unless blank is allowed', async () => {
  assert.deepEqual(await json(Uint8Array.of(0x7b, 0xff, 0x7d), 100), {
    status: 400,
    body: { error: { code: 'invalid_json', message: 'The body is not UTF-8 text.' } },
  });
  assert.deepEqual(await json('{"a":', 100, { what: 'The password body' }), {
    status: 400,
    body: { error: { code: 'invalid_json', message: 'The password body is not valid JSON.' } },
  });
  assert.equal((await json('', 100)).body.error?.code, 'invalid_json');
  assert.equal((await json(' \n ', 100)).body.error?.code, 'invalid_json');
  assert.deepEqual(await json(' \n ', 100, { optional: true }), { status: 200, body: { value: 'absent' } });
  assert.deepEqual(await json(null, 100, { optional: true }), { status: 200, body: { value: 'absent' } });
  assert.deepEqual(await json('0', 100, { optional: true }), { status: 200, body: { value: 0 } });
});

test('JSON bodies: with requireJsonType, only application/json (any parameters, any case) is read', async () => {
  for (const type of [
    'application/json',
    'Application/JSON',
    'application/json; charset=utf-8',
    'application/json;charset=utf-8',
    'application/json ;x=1',
  ]) {
    assert.equal((await json('{}', 100, { requireJsonType: true }, { 'content-type': type })).status, 200, type);
  }
  for (const type of [undefined, 'text/plain', 'application/jsonp', 'application/json-patch+json', 'x-application/json']) {
    const r = await json('{}', 100, { requireJsonType: true, what: 'The creation' }, type ? { 'content-type': type } : {});
    assert.deepEqual(
      r,
      { status: 415, body: { error: { code: 'unsupported_media_type', message: 'The creation must be sent as application/json.' } } },
      String(type),
    );
  }
  assert.equal((await json('{}', 100, {}, { 'content-type': 'text/plain' })).status, 200, 'without the option any type is read');
});
