/** Size and SHA-256 of bytes as they stream past, so the manifest never needs the whole file in memory. */
import { createHash } from 'node:crypto';

export interface Measured {
  size: number;
  /** Lowercase hex. */
  sha256: string;
}

export interface MeasuringStream {
  /** Passes every chunk through unchanged while hashing it. */
  stream: TransformStream<Uint8Array, Uint8Array>;
  /** Size and hash of everything that passed; only meaningful once the stream has ended. */
  result(): Measured;
}

export function measuringStream(): MeasuringStream {
  const hash = createHash('sha256');
  let size = 0;
  let sha256: string | undefined;
  const stream = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      hash.update(chunk);
      size += chunk.byteLength;
      controller.enqueue(chunk);
    },
    flush() {
      sha256 = hash.digest('hex');
    },
  });
  return {
    stream,
    result() {
      if (sha256 === undefined) throw new Error('The measured stream has not ended yet.');
      return { size, sha256 };
    },
  };
}

/** Size and SHA-256 of bytes already in memory. */
export function measureBytes(bytes: Uint8Array): Measured {
  return { size: bytes.byteLength, sha256: createHash('sha256').update(bytes).digest('hex') };
}
