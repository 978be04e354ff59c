/**
 * Buffers for creation bodies, used again from one creation to the next instead of a fresh
 * 1.4 MB buffer each time: a fresh one is new memory the kernel maps page by page as the body is
 * copied in, and its release is what sets off most of the companion's full garbage collections
 * under load. A buffer comes back only once nothing can read it any more (the upstream request
 * that carried its images has been written out, or torn down) and is wiped when it does, so the
 * next body never lands on the last one's images (a fresh `allocUnsafe` buffer promises less:
 * it may hold any old memory).
 */
export class BodyBuffers {
  readonly #free: Uint8Array[] = [];
  /** The memory this made: nothing else (a slice of Node's shared pool, say) is ever kept or wiped. */
  readonly #ours = new WeakSet<ArrayBufferLike>();
  readonly #maxKept: number;
  readonly #maxBytes: number;

  /** Keeps at most `maxKept` buffers of at most `maxBytes` each (larger bodies get their own buffer, never kept). */
  constructor(options: { maxKept: number; maxBytes: number }) {
    this.#maxKept = Math.max(0, options.maxKept);
    this.#maxBytes = options.maxBytes;
  }

  /** A buffer of exactly `size` bytes (a view of a kept one when one is large enough), contents unspecified. */
  take(size: number): Buffer {
    let best = -1;
    for (let i = 0; i < this.#free.length; i++) {
      const b = this.#free[i]!;
      if (b.length >= size && (best < 0 || b.length < this.#free[best]!.length)) best = i;
    }
    if (best >= 0) {
      const [kept] = this.#free.splice(best, 1);
      return Buffer.from(kept!.buffer, kept!.byteOffset, size);
    }
    if (size > this.#maxBytes || this.#maxKept === 0) return Buffer.allocUnsafe(size);
    // Room to grow: the next body of a slightly larger size still fits.
    const memory = new ArrayBuffer(Math.min(this.#maxBytes, Math.ceil((size * 1.25) / 65536) * 65536));
    this.#ours.add(memory);
    return Buffer.from(memory, 0, size);
  }

  /**
   * `bytes` (as `take` gave it) is no longer read by anyone: wiped, and kept for the next body
   * unless enough are kept already. Anything `take` did not make is left alone.
   */
  give(bytes: Uint8Array): void {
    if (!this.#ours.has(bytes.buffer) || bytes.byteOffset !== 0) return;
    const whole = new Uint8Array(bytes.buffer, 0, bytes.buffer.byteLength);
    whole.fill(0, 0, bytes.length);
    if (this.#free.length < this.#maxKept && !this.#free.some((b) => b.buffer === bytes.buffer)) this.#free.push(whole);
  }

  /** How many buffers are kept, and their bytes (for tests and the bench). */
  get kept(): { buffers: number; bytes: number } {
    return { buffers: this.#free.length, bytes: this.#free.reduce((n, b) => n + b.length, 0) };
  }
}
