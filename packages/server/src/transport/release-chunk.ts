/**
 * Gives the memory of a request body chunk back as soon as its bytes have been copied out, wiped
 * first, instead of when the garbage collector next finds the chunk dead.
 *
 * Why: Node's HTTP parser hands each body chunk (up to 64 KB) to JavaScript as a fresh buffer of
 * its own, so a 1.4 MB creation arrives as ~23 buffers whose 1.4 MB V8 counts as external memory
 * until a collection frees them. A young chunk is freed only by a scavenge, which the companion's
 * small JavaScript heap seldom needs; long before that, the external memory pushes V8 into a full
 * collection (measured at concurrency 1: one every ~10 creations, about half of the companion's
 * CPU per creation; BENCHMARKS.md). Detaching each chunk with `ArrayBuffer.prototype.transfer(0)`
 * frees its memory on the spot and takes it off V8's count: 47 full collections in 460 creations
 * became 4. Wiping first means the images in it are not left lying in freed memory either.
 *
 * `transfer` is in Node 21 and later. Node 20 has it behind V8's `--harmony-rab-gsab-transfer`,
 * which only decides what a new context is built with: it is turned on just long enough to build
 * one private `vm` context, the function is taken from there, and the flag is turned off again, so
 * no context of the host process (existing or future) looks any different. Where neither works,
 * chunks are wiped and left to the collector as before.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Transfer = (this: ArrayBuffer, newByteLength?: number) => ArrayBuffer;

let found: Transfer | null | undefined;

/** `transfer` on this runtime (looked for once, on first use: nothing happens at import). */
function transfer(): Transfer | null {
  return (found ??= findTransfer());
}

function findTransfer(): Transfer | null {
  const own = (ArrayBuffer.prototype as { transfer?: unknown }).transfer;
  if (typeof own === 'function') return own as Transfer;
  try {
    setFlagsFromString('--harmony-rab-gsab-transfer');
    try {
      const fromContext: unknown = runInNewContext('ArrayBuffer.prototype.transfer');
      return typeof fromContext === 'function' ? (fromContext as Transfer) : null;
    } finally {
      setFlagsFromString('--no-harmony-rab-gsab-transfer');
    }
  } catch {
    return null;
  }
}

/**
 * Chunks smaller than this are only wiped: a few of them weigh nothing against V8's limits and the
 * next scavenge frees them cheaply, where the detach costs a few microseconds each.
 */
export const FREED_FROM_BYTES = 16 * 1024;

/** Whether `releaseChunk` frees memory on this runtime (it always wipes). */
export function chunkReleaseAvailable(): boolean {
  return transfer() !== null;
}

/**
 * Wipes `chunk` and, when it is the whole of its ArrayBuffer (and at least `FREED_FROM_BYTES`),
 * detaches that buffer so its memory is freed now: afterwards every view of it is empty. Only for
 * a chunk nothing else will read (the caller holds the sole listener of the stream it came from).
 * A view of part of a larger buffer (a slice of Node's shared pool, say) is left untouched.
 */
export function releaseChunk(chunk: Uint8Array): void {
  const buffer = chunk.buffer;
  if (chunk.byteLength === 0 || chunk.byteOffset !== 0 || buffer.byteLength !== chunk.byteLength || buffer instanceof SharedArrayBuffer)
    return;
  chunk.fill(0);
  if (chunk.byteLength >= FREED_FROM_BYTES) transfer()?.call(buffer, 0);
}
