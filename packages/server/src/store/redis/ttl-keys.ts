/** The Redis backend's leases, rate windows, places and idempotency keys: each a script on Redis's own clock (./scripts/ttl-scripts.ts). */
import type { IdempotencyState } from '../backend-state.js';
import type { StorePrimitives } from '../core/primitives.js';
import type { RateLimitDecision } from '../store.js';
import type { AttestedEntry } from '../rules/attested-hashes.js';
import type { RedisContext } from './context.js';
import {
  ACQUIRE_LEASE,
  ATTEST_HASHES,
  COMPLETE_IDEMPOTENCY,
  CONSUME_RATE,
  LEAVE_PLACE,
  RELEASE_IDEMPOTENCY,
  RELEASE_LEASE,
  RENEW_LEASES,
  RESERVE_IDEMPOTENCY,
  TAKE_PLACE,
} from './scripts/ttl-scripts.js';

/** Leases per renewal script: Redis runs a script alone, so a huge one would hold every other client up. */
const RENEW_CHUNK = 500;

type TtlPrimitives = Pick<
  StorePrimitives,
  | 'acquireLease'
  | 'renewLeases'
  | 'releaseLease'
  | 'consumeRate'
  | 'takePlace'
  | 'leavePlace'
  | 'reserveKey'
  | 'completeKey'
  | 'releaseKey'
  | 'attestHashes'
>;

export function ttlPrimitives({ conn, keys }: RedisContext): TtlPrimitives {
  return {
    async acquireLease(name: string, owner: string, ttlMs: number): Promise<boolean> {
      return (await conn.run(ACQUIRE_LEASE, [keys.lease(name)], [owner, String(ttlMs)])) === 1;
    },

    async renewLeases(names: string[], owner: string, ttlMs: number): Promise<string[]> {
      const chunks: string[][] = [];
      for (let i = 0; i < names.length; i += RENEW_CHUNK) chunks.push(names.slice(i, i + RENEW_CHUNK));
      // The chunks go out together on the one connection (node-redis pipelines them): one round trip.
      const flags = await conn.op(() =>
        Promise.all(
          chunks.map(
            (chunk) =>
              conn.script(
                RENEW_LEASES,
                chunk.map((n) => keys.lease(n)),
                [owner, String(ttlMs)],
              ) as Promise<number[]>,
          ),
        ),
      );
      return chunks.flatMap((chunk, c) => chunk.filter((_, i) => Number(flags[c]![i]) === 1));
    },

    async releaseLease(name: string, owner: string): Promise<boolean> {
      return (await conn.run(RELEASE_LEASE, [keys.lease(name)], [owner])) === 1;
    },

    async consumeRate(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
      const [allowed, count, left] = (await conn.run(CONSUME_RATE, [keys.rate(key)], [String(limit), String(windowMs)])) as [
        number,
        number,
        number,
      ];
      return { allowed: allowed === 1, count: Number(count), retryAfterMs: Number(left) };
    },

    async takePlace(key: string, holder: string, limit: number, ttlMs: number): Promise<boolean> {
      return Number(await conn.run(TAKE_PLACE, [keys.place(key)], [holder, String(limit), String(ttlMs)])) === 1;
    },

    async leavePlace(key: string, holder: string): Promise<boolean> {
      return Number(await conn.run(LEAVE_PLACE, [keys.place(key)], [holder])) === 1;
    },

    async reserveKey(key: string, fingerprint: string, reservationTtlMs: number): Promise<IdempotencyState> {
      const reply = (await conn.run(RESERVE_IDEMPOTENCY, [keys.idempotency(key)], [fingerprint, String(reservationTtlMs)])) as string[];
      if (reply[0] === 'done') return { state: 'done', fingerprint: reply[1]!, result: reply[2]! };
      if (reply[0] === 'pending') return { state: 'pending', fingerprint: reply[1]! };
      return { state: 'reserved' };
    },

    async attestHashes(entries: readonly AttestedEntry[], keepMs: number): Promise<(string | null)[]> {
      const reply = (await conn.run(
        ATTEST_HASHES,
        entries.map((e) => keys.attested(e.sha256)),
        [String(keepMs), ...entries.map((e) => e.nonce)],
      )) as string[];
      return reply.map((nonce) => (nonce === '' ? null : nonce));
    },

    async completeKey(key: string, result: string, ttlMs: number): Promise<void> {
      await conn.run(COMPLETE_IDEMPOTENCY, [keys.idempotency(key)], [result, String(ttlMs)]);
    },

    async releaseKey(key: string): Promise<void> {
      await conn.run(RELEASE_IDEMPOTENCY, [keys.idempotency(key)], []);
    },
  };
}
