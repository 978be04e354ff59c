/**
 * Node's HTTP parser makes every body chunk a buffer of its own; the body reader frees each one as
 * soon as its bytes are copied or refused (transport/release-chunk.ts, transport/limited-body.ts), so a
 * 1.4 MB creation does not leave 1.4 MB of chunks for a full garbage collection to find. Over a
 * real loopback socket: the body still arrives whole, every chunk the reader got is empty
 * afterwards, and a chunk another listener also gets is left alone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runInNewContext } from 'node:vm';
import { readLimitedIncoming, type LimitedBody } from '../src/transport/limited-body.js';
import { chunkReleaseAvailable, FREED_FROM_BYTES, releaseChunk } from '../src/transport/release-chunk.js';

/** Bytes that show where each one came from (a chunk copied to the wrong place would show). */
const patterned = (n: number) => {
  const b = Buffer.allocUnsafe(n);
  for (let i = 0; i < n; i++) b[i] = (i * 7 + (i >> 16)) % 251;
  return b;
};

interface Seen {
  read: LimitedBody;
  /** Every chunk the request emitted to its `data` listeners, as they are after the read. */
  chunks: Buffer[];
  /** Their lengths when they were emitted. */
  lengths: number[];
  /** What another listener got, when there was one. */
  other?: Buffer;
}

/** Whether each chunk was released: freed (now empty), or wiped (all zero) when smaller than FREED_FROM_BYTES. */
const released = ({ chunks, lengths }: Seen) =>
  chunks.map((c, i) => (lengths[i]! >= FREED_FROM_BYTES ? c.buffer.byteLength === 0 : c.length === lengths[i] && c.every((b) => b === 0)));

/**
 * One request through a real server whose handler reads the body with `readLimitedIncoming`;
 * `chunked` sends it without a declared length.
 */
async function through(body: Buffer, options: { limit: number; chunked?: boolean; otherListener?: boolean }): Promise<Seen> {
  let seen: Seen | undefined;
  const server = createServer((incoming: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    const lengths: number[] = [];
    const emit = incoming.emit.bind(incoming);
    incoming.emit = ((event: string, ...args: unknown[]) => {
      if (event === 'data') {
        chunks.push(args[0] as Buffer);
        lengths.push((args[0] as Buffer).length);
      }
      return emit(event, ...args);
    }) as typeof incoming.emit;
    const other: Buffer[] = [];
    if (options.otherListener) incoming.on('data', (chunk: Buffer) => other.push(Buffer.from(chunk)));
    void readLimitedIncoming(incoming, options.limit, { maxDrainMs: 5_000 }).then((read) => {
      seen = { read, chunks, lengths, ...(options.otherListener && { other: Buffer.concat(other) }) };
      res.end(read.ok ? 'ok' : 'refused');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const answer = await new Promise<string>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, method: 'POST', headers: options.chunked ? {} : { 'content-length': String(body.length) } },
        (res) => {
          let text = '';
          res
            .setEncoding('utf8')
            .on('data', (d: string) => (text += d))
            .on('end', () => resolve(text));
        },
      );
      req.on('error', reject);
      if (!options.chunked) return req.end(body);
      // Several writes, so the body is several chunks of Transfer-Encoding: chunked.
      for (let at = 0; at < body.length; at += 100_000) req.write(body.subarray(at, at + 100_000));
      req.end();
    });
    assert.ok(seen, `the handler never finished (answer: ${answer})`);
    return seen;
  } finally {
    server.close();
  }
}

// First in the file: nothing has looked for transfer yet.
test('getting transfer on Node 20 changes nothing in this context or in contexts made later', () => {
  const own = (ArrayBuffer.prototype as { transfer?: unknown }).transfer;
  const inNewContext = () => runInNewContext('typeof ArrayBuffer.prototype.transfer') as string;
  const before = inNewContext();
  releaseChunk(Buffer.allocUnsafeSlow(16));
  assert.equal((ArrayBuffer.prototype as { transfer?: unknown }).transfer, own);
  assert.equal(inNewContext(), before);
});

test('releasing a chunk empties it and gives its memory back at once; a small one is wiped only; part of a larger buffer is left alone', () => {
  assert.equal(chunkReleaseAvailable(), true, `no ArrayBuffer transfer on Node ${process.version}`);
  const chunk = Buffer.allocUnsafeSlow(4 << 20).fill(1);
  const before = process.memoryUsage().arrayBuffers;
  releaseChunk(chunk);
  assert.equal(chunk.length, 0);
  assert.equal(chunk.buffer.byteLength, 0);
  assert.ok(before - process.memoryUsage().arrayBuffers >= 4 << 20, 'the 4 MiB is still counted');
  releaseChunk(chunk); // twice: nothing to do

  const small = Buffer.allocUnsafeSlow(FREED_FROM_BYTES - 1).fill(7);
  releaseChunk(small);
  assert.equal(small.length, FREED_FROM_BYTES - 1);
  assert.ok(
    small.every((b) => b === 0),
    'a small chunk was not wiped',
  );

  const pooled = Buffer.from('a slice of the shared pool');
  releaseChunk(pooled);
  assert.equal(pooled.toString(), 'a slice of the shared pool');
  const whole = new Uint8Array(8).fill(5);
  releaseChunk(whole.subarray(2));
  assert.deepEqual([...whole], [5, 5, 5, 5, 5, 5, 5, 5]);
});

test('a body of declared length arrives whole, and every chunk it came in is freed', async () => {
  const body = patterned(1_400_000);
  const seen = await through(body, { limit: 2_000_000 });
  assert.equal(seen.read.ok, true);
  assert.ok(seen.read.ok && Buffer.from(seen.read.bytes).equals(body), 'the body came back changed');
  assert.ok(seen.chunks.length > 1, `one chunk only: ${seen.lengths.join(', ')}`);
  assert.equal(
    seen.lengths.reduce((a, b) => a + b, 0),
    body.length,
  );
  assert.deepEqual(
    released(seen),
    seen.chunks.map(() => true),
    `a chunk was not released (lengths ${seen.lengths.join(', ')})`,
  );
  assert.ok(
    seen.chunks.some((c, i) => seen.lengths[i]! >= FREED_FROM_BYTES && c.buffer.byteLength === 0),
    'no chunk was freed',
  );
});

test('a chunked body is gathered whole, then its chunks are freed', async () => {
  const body = patterned(600_000);
  const seen = await through(body, { limit: 2_000_000, chunked: true });
  assert.ok(seen.read.ok && Buffer.from(seen.read.bytes).equals(body), 'the body came back changed');
  assert.ok(seen.chunks.length > 1);
  assert.deepEqual(
    released(seen),
    seen.chunks.map(() => true),
    `a chunk was not released (lengths ${seen.lengths.join(', ')})`,
  );
});

test('a refused body: the chunks read before the refusal and the ones drained after it are freed', async () => {
  const seen = await through(patterned(900_000), { limit: 300_000, chunked: true });
  assert.equal(seen.read.ok, false);
  assert.ok(seen.lengths.reduce((a, b) => a + b, 0) > 300_000);
  assert.deepEqual(
    released(seen),
    seen.chunks.map(() => true),
    `a chunk was not released (lengths ${seen.lengths.join(', ')})`,
  );
});

test('a chunk another listener also gets is neither wiped nor freed', async () => {
  const body = patterned(700_000);
  const seen = await through(body, { limit: 2_000_000, otherListener: true });
  assert.ok(seen.read.ok && Buffer.from(seen.read.bytes).equals(body));
  assert.ok(seen.other?.equals(body), 'the other listener did not get the body intact');
  assert.ok(
    seen.chunks.every((c, i) => c.length === seen.lengths[i]),
    'a chunk was freed under the other listener',
  );
});
