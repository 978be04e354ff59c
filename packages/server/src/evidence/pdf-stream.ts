/**
 * Checks that a stream is a PDF by its first bytes without buffering it: the bytes read to decide
 * are replayed in front of the rest, so a 100 MiB report costs the same memory as a small one.
 */
import { isPdf } from '@onboarding-kit/contract';

/** `%PDF-`: what {@link isPdf} needs to decide. */
const PDF_SIGNATURE_LENGTH = 5;

export type PdfPeek =
  | {
      ok: true;
      stream: ReadableStream<Uint8Array>;
      /**
       * Cancels the source even while `stream` is locked by a consumer that stopped without
       * cancelling it (zip.js, when aborted, can leave its read side hanging).
       */
      abandon(reason?: unknown): Promise<void>;
    }
  | { ok: false; reason: 'empty' | 'not-pdf' | 'unreadable' };

export async function peekPdf(source: ReadableStream<Uint8Array>): Promise<PdfPeek> {
  const reader = source.getReader();
  const head: Uint8Array[] = [];
  let headLength = 0;
  try {
    while (headLength < PDF_SIGNATURE_LENGTH) {
      const { done, value } = await reader.read();
      if (done) break;
      if (value.byteLength === 0) continue;
      head.push(value);
      headLength += value.byteLength;
    }
  } catch {
    reader.releaseLock();
    return { ok: false, reason: 'unreadable' };
  }
  const reason = headLength === 0 ? 'empty' : isPdf(concat(head, PDF_SIGNATURE_LENGTH)) ? null : 'not-pdf';
  if (reason) {
    await reader.cancel().catch(() => {});
    return { ok: false, reason };
  }
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const replay = head.shift();
        if (replay) return controller.enqueue(replay);
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    // Read one chunk at a time, only when the consumer asks: no read-ahead buffer.
    { highWaterMark: 0 },
  );
  const abandon = (reason?: unknown) => reader.cancel(reason).catch(() => {});
  return { ok: true, stream, abandon };
}

/** Human-readable reason for a failed {@link peekPdf}, safe for a manifest or an error body. */
export function pdfPeekReason(reason: 'empty' | 'not-pdf' | 'unreadable'): string {
  switch (reason) {
    case 'empty':
      return 'the upstream PDF was empty';
    case 'not-pdf':
      return 'the upstream answer does not start with %PDF';
    case 'unreadable':
      return 'the upstream PDF could not be read';
  }
}

function concat(chunks: Uint8Array[], limit: number): Uint8Array {
  const out = new Uint8Array(
    Math.min(
      limit,
      chunks.reduce((n, c) => n + c.byteLength, 0),
    ),
  );
  let offset = 0;
  for (const chunk of chunks) {
    if (offset >= out.length) break;
    const part = chunk.subarray(0, out.length - offset);
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}
