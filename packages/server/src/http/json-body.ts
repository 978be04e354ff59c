/**
 * The one way a route reads a request body: as UTF-8 JSON within a byte limit, through
 * `readLimitedBody` (./limited-body.ts), so no body is ever held beyond its limit
 * (docs/page-api.md#limits-and-configuration). Refusals are the error shape: 413
 * `payload_too_large`, 415 `unsupported_media_type`, 400 `invalid_json`.
 */
import type { Context } from 'hono';
import { CompanionError } from './companion-error.js';
import { readLimitedBody } from './limited-body.js';

export interface JsonBodyOptions {
  /** Refuse a body not declared `application/json` with 415 before reading it (default false). */
  requireJsonType?: boolean;
  /** An absent or blank body reads as `undefined` instead of 400 `invalid_json` (default false). */
  optional?: boolean;
  /** Names the body in refusals (default `The body`). */
  what?: string;
}

const JSON_TYPE = /^application\/json\s*(;|$)/i;

/**
 * The parsed body. Its own function so the raw bytes (a creation's hold the images) are
 * unreachable as soon as it returns.
 */
export async function readJsonBody(c: Context, limit: number, options: JsonBodyOptions = {}): Promise<unknown> {
  const what = options.what ?? 'The body';
  if (options.requireJsonType && !JSON_TYPE.test(c.req.header('content-type') ?? '')) {
    throw new CompanionError(415, 'unsupported_media_type', `${what} must be sent as application/json.`);
  }
  const read = await readLimitedBody(c.req.raw, limit);
  if (!read.ok) throw new CompanionError(413, 'payload_too_large', `${what} is larger than ${limit} bytes.`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(read.bytes);
  } catch {
    throw new CompanionError(400, 'invalid_json', `${what} is not UTF-8 text.`);
  }
  if (options.optional && text.trim() === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed;
  } catch {
    throw new CompanionError(400, 'invalid_json', `${what} is not valid JSON.`);
  }
}
