/** What every part of the Redis backend shares: the connection, the key names and this instance's id. */
import type { RedisConnection } from './connection.js';
import type { RedisKeys } from './keys.js';
import type { Clock } from '../store.js';
import { msOf } from '../rules/iso-time.js';

export interface RedisContext {
  conn: RedisConnection;
  keys: RedisKeys;
  /** This instance, as its messages on the channels name it (it skips its own). */
  instanceId: string;
  /** The store's clock: status times, and hand-off keys' liveness. Leases and windows follow the server's. */
  now: Clock;
  /** The companion's retention policy, applied to onboardings as TTLs. */
  retention: { finishedMs: number; maxAgeMs: number } | undefined;
}

/** Members read per round trip when a list must skip some, and records deleted per transaction. */
export const PAGE = 200;

/** The id in an index member `<seq>:<id>`. */
export const idOf = (member: string): string => member.slice(member.indexOf(':') + 1);
/** A time as a script takes it: ms since the epoch, or '' for none. */
export const optionalMs = (iso: string | undefined): string => (iso === undefined ? '' : String(msOf(iso)));
