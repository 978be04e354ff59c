/**
 * Reads a request body with a running byte count and refuses it once it passes `limit`, without
 * ever holding more than `limit` bytes. A refused body is then read to its end and thrown away
 * (bounded in bytes and time): closing a socket that still has unread request data makes TCP
 * send a reset, which can destroy the 413 answer before the client reads it.
 */
export type LimitedBody = { ok: true; bytes: Uint8Array } | { ok: false };

export interface DrainLimits {
  /** Most bytes thrown away after the refusal before giving up on the client (default 256 MiB). */
  maxDrainBytes?: number;
  /** Longest time spent draining (default 30 s). */
  maxDrainMs?: number;
}

export async function readLimitedBody(req: Request, limit: number, drain: DrainLimits = {}): Promise<LimitedBody> {
  const declared = Number(req.headers.get('content-length') ?? NaN);
  const stream = req.body;
  if (!stream) return { ok: true, bytes: new Uint8Array(0) };
  const reader = stream.getReader();
  if (Number.isFinite(declared) && declared > limit) {
    void drainRest(reader, drain);
    return { ok: false };
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      chunks.length = 0;
      void drainRest(reader, drain);
      return { ok: false };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, bytes };
}

async function drainRest(reader: ReadableStreamDefaultReader<Uint8Array>, limits: DrainLimits): Promise<void> {
  const maxBytes = limits.maxDrainBytes ?? 256 * 1024 * 1024;
  // A client that stalls or keeps sending far past any sane size: stop listening to it.
  const giveUp = () => void reader.cancel().catch(() => {});
  const timer = setTimeout(giveUp, limits.maxDrainMs ?? 30_000);
  timer.unref?.();
  let drained = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      drained += value.byteLength;
      if (drained > maxBytes) return giveUp();
    }
  } catch {
    // The client went away; nothing left to drain.
  } finally {
    clearTimeout(timer);
  }
}
