/**
 * `ONBOARDING_STORE` to a store: `sqlite:<path>` (the default of `npm start`; the file and its
 * folder are created on first start), `redis://...` or `rediss://...` (shared by several
 * instances), or `memory` (state dies with the process).
 */
import { resolve } from 'node:path';
import type { Logger } from '../logger.js';
import { StoreConfigError } from './errors.js';
import { MemoryStore } from './memory/memory-store.js';
import { RedisStore, type RedisStoreOptions } from './redis/redis-store.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import type { Clock, Store } from './store.js';

export const DEFAULT_STORE_URL = 'sqlite:./data/onboarding-kit.db';

export interface CreateStoreOptions {
  /** The clock of leases, rate windows and status times (Redis keeps its own for TTLs). */
  now?: Clock;
  /** Key prefix in Redis (`ONBOARDING_REDIS_PREFIX`, default `okit:`). */
  redisPrefix?: string;
  /** The companion's retention policy, which Redis applies to its keys as TTLs. */
  retention?: { finishedMs: number; maxAgeMs: number };
  /** Where a shared store reports losing and regaining its connection. */
  logger?: Logger;
  /** Relative SQLite paths start here (default: the working directory). */
  cwd?: string;
  /** Redis: see RedisStoreOptions. */
  operationTimeoutMs?: number;
  startTimeoutMs?: number;
  /**
   * `ONBOARDING_DATA_KEY`: encrypts personal data at rest, `<id>:<base64 of 32 bytes>[,<id>:<key>...]`
   * (the first key seals, all open; docs/backend-api.md#personal-data-at-rest). Unset: stored as given.
   */
  dataKey?: string;
}

export type StoreKind = 'sqlite' | 'redis' | 'memory';

/** Which store `url` names, and where (the Redis URL as given; the SQLite path as given). */
export function parseStoreUrl(url: string): { kind: StoreKind; target: string } {
  const u = url.trim();
  if (u === 'memory') return { kind: 'memory', target: '' };
  if (u.startsWith('sqlite:')) {
    const path = u.slice('sqlite:'.length).replace(/^\/\/(?=\/|\.)/, '');
    if (!path) throw new StoreConfigError('ONBOARDING_STORE sqlite: needs a file path, as in sqlite:./data/onboarding-kit.db.');
    return { kind: 'sqlite', target: path };
  }
  if (/^rediss?:\/\//.test(u)) {
    try {
      new URL(u);
    } catch {
      throw new StoreConfigError('ONBOARDING_STORE is not a valid redis:// URL.');
    }
    return { kind: 'redis', target: u };
  }
  // The value may hold a password: never echo it.
  throw new StoreConfigError('ONBOARDING_STORE must be sqlite:<path>, redis://host:port[/db], rediss://... or memory.');
}

export async function createStore(url: string, options: CreateStoreOptions = {}): Promise<Store> {
  const { kind, target } = parseStoreUrl(url);
  const common = { ...(options.now && { now: options.now }), ...(options.dataKey !== undefined && { dataKey: options.dataKey }) };
  switch (kind) {
    case 'memory':
      return new MemoryStore({ ...common });
    case 'sqlite':
      return new SqliteStore(target === ':memory:' ? target : resolve(options.cwd ?? process.cwd(), target), { ...common });
    case 'redis': {
      const redis: RedisStoreOptions = {
        ...common,
        ...(options.redisPrefix !== undefined && { prefix: options.redisPrefix }),
        ...(options.retention && { retention: options.retention }),
        ...(options.logger && { logger: options.logger }),
        ...(options.operationTimeoutMs !== undefined && { operationTimeoutMs: options.operationTimeoutMs }),
        ...(options.startTimeoutMs !== undefined && { startTimeoutMs: options.startTimeoutMs }),
      };
      return RedisStore.connect(target, redis);
    }
  }
}
