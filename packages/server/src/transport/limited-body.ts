/**
 * Reads a request body with a running byte count and refuses it once it passes `limit`, without
 * ever holding more than `limit` bytes. A refused body is then read to its end and thrown away
 * (bounded in bytes and time): closing a socket that still has unread request data makes TCP
 * send a reset, which can destroy the 413 answer before the client reads it.
 */
import type { IncomingMessage } from 'node:http';
import { watchPace, type BodyPace, type PaceBreach } from './body-pace.js';
import { releaseChunk } from './release-chunk.js';

/** `slow`: the body broke its pace (./body-pace.ts) and was given up unread; otherwise it passed the limit. */
export type LimitedBody = { ok: true; bytes: Uint8Array } | { ok: false; slow?: PaceBreach };

export interface DrainLimits {
  /** Most bytes thrown away after the refusal before giving up on the client (default 256 MiB). */
  maxDrainBytes?: number;
  /** Longest time spent draining (default 30 s). */
  maxDrainMs?: number;
}

/**
 * `readLimitedBody` straight from Node's request (no web stream in between: one buffer of the
 * declared size, filled as the chunks come, from `allocate`). Same limits, same refusal, same drain.
 * Each chunk Node's parser made is wiped and its memory freed as soon as its bytes are copied or
 * refused (./release-chunk.ts), unless another `data` listener gets it too.
 */
export function readLimitedIncoming(
  incoming: IncomingMessage,
  limit: number,
  drain: DrainLimits = {},
  allocate: (size: number) => Uint8Array = Buffer.allocUnsafe,
  pace?: BodyPace,
): Promise<LimitedBody> {
  const declared = Number(incoming.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > limit) {
    drainIncoming(incoming, drain);
    return Promise.resolve({ ok: false });
  }
  return new Promise((resolve, reject) => {
    // Node's parser never passes more than a declared length on, so the buffer is filled exactly.
    const sized = Number.isFinite(declared) ? allocate(declared) : undefined;
    const chunks: Buffer[] = [];
    let total = 0;
    // Held chunks are freed only if no other listener ever got them (it may have kept them).
    let shared = false;
    const releaseHeld = () => {
      if (!shared) for (const held of chunks) releaseChunk(held);
      chunks.length = 0;
    };
    const cleanup = () => {
      watch?.stop();
      off();
    };
    const onData = (chunk: Buffer) => {
      const alone = soleListener(incoming);
      shared ||= !alone;
      if (total + chunk.length > limit) {
        releaseHeld();
        if (alone) releaseChunk(chunk);
        cleanup();
        drainIncoming(incoming, drain);
        resolve({ ok: false });
        return;
      }
      total += chunk.length;
      watch?.got(chunk.length);
      if (!sized) chunks.push(chunk);
      else {
        sized.set(chunk, total - chunk.length);
        if (alone) releaseChunk(chunk);
      }
    };
    const onEnd = () => {
      cleanup();
      if (sized || chunks.length === 1) return resolve({ ok: true, bytes: sized ? sized.subarray(0, total) : chunks[0]! });
      const bytes = Buffer.concat(chunks, total);
      releaseHeld();
      resolve({ ok: true, bytes });
    };
    const onError = (error: Error) => {
      cleanup();
      releaseHeld();
      reject(error);
    };
    const onClose = () => {
      if (incoming.readableEnded) return;
      cleanup();
      releaseHeld();
      reject(new Error('The client closed the connection before the body was complete.'));
    };
    // Given up: what arrived is wiped, and the rest is never read (the route closes the connection).
    const watch =
      pace &&
      watchPace(pace, (slow) => {
        cleanup();
        releaseHeld();
        sized?.fill(0);
        resolve({ ok: false, slow });
      });
    const off = listenTo(incoming, { onData, onEnd, onError, onClose });
  });
}

/** Listens to a body's events; returns what stops listening. */
function listenTo(
  incoming: IncomingMessage,
  on: { onData: (chunk: Buffer) => void; onEnd: () => void; onError: (error: Error) => void; onClose: () => void },
): () => void {
  incoming.on('data', on.onData);
  incoming.once('end', on.onEnd);
  incoming.once('error', on.onError);
  incoming.once('close', on.onClose);
  return () => {
    incoming.off('data', on.onData);
    incoming.off('end', on.onEnd);
    incoming.off('error', on.onError);
    incoming.off('close', on.onClose);
  };
}

/** Whether the one `data` listener is ours: only then may a chunk be wiped and freed after it. */
function soleListener(incoming: IncomingMessage): boolean {
  return incoming.listenerCount('data') === 1;
}

function drainIncoming(incoming: IncomingMessage, limits: DrainLimits): void {
  const maxBytes = limits.maxDrainBytes ?? 256 * 1024 * 1024;
  let drained = 0;
  const giveUp = () => {
    clearTimeout(timer);
    incoming.off('data', onData);
    incoming.destroy();
  };
  const timer = setTimeout(giveUp, limits.maxDrainMs ?? 30_000);
  timer.unref?.();
  const onData = (chunk: Buffer) => {
    drained += chunk.length;
    if (soleListener(incoming)) releaseChunk(chunk);
    if (drained > maxBytes) giveUp();
  };
  incoming.on('data', onData);
  incoming.once('end', () => clearTimeout(timer));
  incoming.once('close', () => clearTimeout(timer));
  incoming.once('error', () => clearTimeout(timer));
  incoming.resume();
}

export async function readLimitedBody(req: Request, limit: number, drain: DrainLimits = {}, pace?: BodyPace): Promise<LimitedBody> {
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
  let breached: ((slow: PaceBreach) => void) | undefined;
  const slow = new Promise<PaceBreach>((resolve) => (breached = resolve));
  const watch = pace && watchPace(pace, (why) => breached!(why));
  try {
    for (;;) {
      const next = watch ? await Promise.race([reader.read(), slow]) : await reader.read();
      if (typeof next === 'string') {
        chunks.length = 0;
        void reader.cancel().catch(() => {});
        return { ok: false, slow: next };
      }
      const { done, value } = next;
      if (done) break;
      watch?.got(value.byteLength);
      total += value.byteLength;
      if (total > limit) {
        chunks.length = 0;
        void drainRest(reader, drain);
        return { ok: false };
      }
      chunks.push(value);
    }
  } finally {
    watch?.stop();
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
