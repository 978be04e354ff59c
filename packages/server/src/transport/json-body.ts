/**
 * The one way a route reads a request body: as UTF-8 JSON within a byte limit, through
 * `readLimitedBody` (./limited-body.ts), so no body is ever held beyond its limit
 * (docs/page-api.md#limits-and-configuration). Refusals are the error shape: 413
 * `payload_too_large`, 415 `unsupported_media_type`, 400 `invalid_json`.
 */
import type { BodyBuffers } from './body-buffers.js';
import type { BodyPace } from './body-pace.js';
import type { Context } from 'hono';
import { httpError } from '../http/companion-error.js';
import { readLimitedBody, readLimitedIncoming } from './limited-body.js';
import { nodeIncoming, nodeOutgoing } from './node-bindings.js';
import { requestHeader } from './request-header.js';

export interface JsonBodyOptions {
  /** Refuse a body not declared `application/json` with 415 before reading it (default false). */
  requireJsonType?: boolean;
  /** An absent or blank body reads as `undefined` instead of 400 `invalid_json` (default false). */
  optional?: boolean;
  /** Names the body in refusals (default `The body`). */
  what?: string;
  /** Where a body of declared length is read into (default: a fresh buffer); the caller gives it back. */
  buffers?: BodyBuffers;
  /** The pace the body must keep (./body-pace.ts); a body that breaks it is 408 `upload_too_slow`. */
  pace?: BodyPace;
}

const JSON_TYPE = /^application\/json\s*(;|$)/i;

/**
 * The parsed body. Its own function so the raw bytes (a creation's hold the images) are
 * unreachable as soon as it returns.
 */
export async function readJsonBody(c: Context, limit: number, options: JsonBodyOptions = {}): Promise<unknown> {
  return parseJsonBytes(await readBodyBytes(c, limit, options), options);
}

/**
 * The body's bytes within `limit` (413 past it; 415 first when JSON is required and not declared).
 * On Node (the request's `incoming` in the bindings, its body not touched yet) read from it
 * directly; elsewhere through the web Request.
 */
export async function readBodyBytes(c: Context, limit: number, options: JsonBodyOptions = {}): Promise<Uint8Array> {
  const what = options.what ?? 'The body';
  if (options.requireJsonType && !JSON_TYPE.test(requestHeader(c, 'content-type') ?? '')) {
    throw httpError('unsupported_media_type', `${what} must be sent as application/json.`);
  }
  const incoming = nodeIncoming(c);
  // Untouched: nothing read it, nothing (a web stream made of it) listens to it.
  const direct = incoming !== undefined && !incoming.readableDidRead && incoming.listenerCount('data') === 0;
  const buffers = options.buffers;
  const read = direct
    ? await readLimitedIncoming(incoming, limit, {}, buffers ? (size) => buffers.take(size) : undefined, options.pace)
    : await readLimitedBody(c.req.raw, limit, {}, options.pace);
  if (!read.ok && read.slow) {
    // The rest of the body is never read: the connection ends with the answer, not kept for another request.
    const outgoing = nodeOutgoing(c);
    if (outgoing) outgoing.shouldKeepAlive = false;
    throw httpError(
      'upload_too_slow',
      read.slow === 'deadline'
        ? `${what} did not arrive within ${options.pace!.bodyTimeoutMs} ms.`
        : `${what} arrived slower than ${options.pace!.minBytesPerS} bytes per second.`,
    );
  }
  if (!read.ok) throw httpError('payload_too_large', `${what} is larger than ${limit} bytes.`);
  return read.bytes;
}

/** The bytes as UTF-8 JSON: 400 `invalid_json` when they are not. */
export function parseJsonBytes(bytes: Uint8Array, options: JsonBodyOptions = {}): unknown {
  const what = options.what ?? 'The body';
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw httpError('invalid_json', `${what} is not UTF-8 text.`);
  }
  if (options.optional && text.trim() === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed;
  } catch {
    throw httpError('invalid_json', `${what} is not valid JSON.`);
  }
}
