/** A Lua script as Redis caches it: by the SHA-1 of its source. */
import { createHash } from 'node:crypto';

export interface LuaScript {
  readonly source: string;
  readonly sha: string;
}

export const lua = (source: string): LuaScript => ({ source, sha: createHash('sha1').update(source).digest('hex') });
