/**
 * Where a service reads an image: the base64 field (`image1`, `image2`, `selfie1`), or for
 * `image1`/`image2` the matching URL field (`image1Url`, `image2Url`), which the sandbox fetches
 * for real (http/https only, bounded in time and size) and checks like any other image.
 */
import { checkImage, checkImageBytes, type ImageCheck } from './images.js';

const URL_FIELD: Readonly<Record<string, string>> = { image1: 'image1Url', image2: 'image2Url' };
const MAX_URL_BYTES = 16 * 1024 * 1024;

export function hasImageSource(body: Readonly<Record<string, unknown>>, field: string): boolean {
  const urlField = URL_FIELD[field];
  return isFilled(body[field]) || (urlField !== undefined && isFilled(body[urlField]));
}

function isFilled(value: unknown): boolean {
  return typeof value === 'string' ? value.trim() !== '' : value !== undefined && value !== null;
}

export async function readImage(body: Readonly<Record<string, unknown>>, field: string): Promise<ImageCheck> {
  if (isFilled(body[field])) return checkImage(body[field]);
  const url = body[URL_FIELD[field] ?? ''];
  if (typeof url !== 'string') return { ok: false, reason: 'not a URL' };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'not a URL' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { ok: false, reason: 'not an http(s) URL' };
  try {
    const res = await fetch(parsed, { signal: AbortSignal.timeout(5_000), redirect: 'follow' });
    if (!res.ok || !res.body) {
      await res.body?.cancel();
      return { ok: false, reason: `URL answered HTTP ${res.status}` };
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.length;
      if (size > MAX_URL_BYTES) return { ok: false, reason: 'image too large' };
      chunks.push(chunk);
    }
    return checkImageBytes(new Uint8Array(Buffer.concat(chunks)));
  } catch {
    return { ok: false, reason: 'URL unreachable' };
  }
}
