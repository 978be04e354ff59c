/**
 * The rule tables of src/store/rules/ played against a store: each store, the Redis one with its
 * Lua scripts included, must answer every row as the pure rules do (test/store-rules.test.ts), so
 * a script that drifts from the TypeScript rule fails here.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  IDEMPOTENCY_CASES,
  LEASE_CASES,
  PLACE_CASE_LIMIT,
  PLACE_CASES,
  RATE_CASE_LIMIT,
  RATE_CASE_WINDOW_MS,
  RATE_CASES,
  STATUS_TRANSITIONS,
} from '../src/store/rules/index.js';
import type { Store } from '../src/store/store.js';

export type WithStore = (
  body: (s: Store, ctx: { clock: { now(): number; advance(ms: number): Promise<void> }; peer: () => Promise<Store> }) => Promise<void>,
) => Promise<void>;

/**
 * With `serverClock` (Redis TTLs), a table's times map onto real ones: a time to live of one
 * second (steps at the start keep well inside it on a loaded machine), and a step after the start
 * waits 1.7 s, well past it.
 */
function timeline(serverClock: boolean) {
  return {
    ttl: (ms: number) => (serverClock ? 1_000 : ms),
    wait: (fromMs: number, toMs: number) => (serverClock ? (toMs > fromMs ? 1_700 : 0) : toMs - fromMs),
  };
}

export function describeRuleTables(name: string, withStore: WithStore, serverClock: boolean): void {
  const time = timeline(serverClock);

  describe(`${name} store: the rule tables`, () => {
    test('status transitions: every pair of statuses moves or not as STATUS_TRANSITIONS says', async () => {
      await withStore(async (s) => {
        for (const { from, to, moves } of STATUS_TRANSITIONS) {
          const token = `tok-${from}-${to}`;
          const history = [{ status: from, at: '2030-01-01T00:00:00.000Z', source: 'creation' as const }];
          await s.create({ tokenOnboarding: token, status: from, createdAt: '2030-01-01T00:00:00.000Z', accessKeyHash: 'h', history });
          const out = (await s.applyStatus(token, { status: to, source: 'poll', at: '2030-01-01T00:00:01.000Z' }))!;
          assert.equal(out.changed, moves, `${from} > ${to}`);
          assert.equal(out.record.status, moves ? to : from, `${from} > ${to}`);
          assert.equal((await s.get(token))!.history.length, moves ? 2 : 1, `${from} > ${to}`);
        }
      });
    });

    test('idempotency keys: every case of IDEMPOTENCY_CASES, across two instances', async () => {
      await withStore(async (a, { peer }) => {
        const b = await peer();
        for (const [i, c] of IDEMPOTENCY_CASES.entries()) {
          const key = `case-${i}`;
          for (const [j, step] of c.steps.entries()) {
            const s = j % 2 ? b : a;
            if (step.op === 'reserve') {
              const got = await s.reserveIdempotencyKey(key, step.fingerprint, { ttlMs: 60_000, pendingTtlMs: 60_000 });
              assert.equal(got.state, step.expect, `${c.name}, step ${j}`);
              if (got.state === 'done') assert.equal(got.result, c.replays, c.name);
              if (got.state !== 'reserved') assert.equal(got.fingerprint, 'f1', `${c.name}: the holder's fingerprint`);
            } else if (step.op === 'complete') {
              await s.completeIdempotencyKey(key, step.result, 60_000);
            } else {
              await s.releaseIdempotencyKey(key);
            }
          }
        }
      });
    });

    test('leases: every case of LEASE_CASES, the cases side by side on one timeline', async () => {
      await withStore(async (a, { clock, peer }) => {
        const b = await peer();
        const steps = LEASE_CASES.flatMap((c, i) =>
          c.steps.map((step, j) => ({ ...step, lease: `case-${i}`, name: `${c.name}, step ${j}`, order: j })),
        );
        const times = [...new Set(steps.map((s) => s.at))].sort((x, y) => x - y);
        let at = 0;
        for (const t of times) {
          await clock.advance(time.wait(at, t));
          at = t;
          for (const step of steps.filter((s) => s.at === t).sort((x, y) => x.order - y.order)) {
            const s = step.owner === 'a' ? a : b;
            const got =
              step.op === 'acquire'
                ? await s.acquireLease(step.lease, step.owner, time.ttl(step.ttlMs!))
                : step.op === 'renew'
                  ? await s.renewLease(step.lease, step.owner, time.ttl(step.ttlMs!))
                  : await s.releaseLease(step.lease, step.owner);
            assert.equal(got, step.expect, step.name);
          }
        }
      });
    });

    test('places: every case of PLACE_CASES, holders spread over two instances, the cases side by side on one timeline', async () => {
      await withStore(async (a, { clock, peer }) => {
        const b = await peer();
        const steps = PLACE_CASES.flatMap((c, i) =>
          c.steps.map((step, j) => ({ ...step, key: `address:case-${i}`, name: `${c.name}, step ${j}`, order: j })),
        );
        const times = [...new Set(steps.map((s) => s.at))].sort((x, y) => x - y);
        let at = 0;
        for (const t of times) {
          await clock.advance(time.wait(at, t));
          at = t;
          for (const step of steps.filter((s) => s.at === t).sort((x, y) => x.order - y.order)) {
            const s = step.order % 2 ? b : a;
            const got =
              step.op === 'take'
                ? await s.takePlace(step.key, step.holder, PLACE_CASE_LIMIT, time.ttl(step.ttlMs!))
                : await s.leavePlace(step.key, step.holder);
            assert.equal(got, step.expect, step.name);
          }
        }
      });
    });

    test('rate windows: RATE_CASES, one key across two instances', async () => {
      await withStore(async (a, { clock, peer }) => {
        const b = await peer();
        const windowMs = time.ttl(RATE_CASE_WINDOW_MS);
        let at = 0;
        for (const [i, row] of RATE_CASES.entries()) {
          // Steps inside the window keep to its start on a server clock: only the one after it waits.
          const wait = serverClock ? (row.at >= RATE_CASE_WINDOW_MS ? 1_700 : 0) : row.at - at;
          await clock.advance(wait);
          at = row.at;
          const got = await (i % 2 ? b : a).consumeRateLimit('ip:table', RATE_CASE_LIMIT, windowMs);
          assert.deepEqual([got.allowed, got.count], [row.allowed, row.count], `at ${row.at}`);
          if (serverClock) assert.ok(got.retryAfterMs > 0 && got.retryAfterMs <= windowMs, `retry after ${got.retryAfterMs}`);
          else assert.equal(got.retryAfterMs, row.retryAfterMs, `at ${row.at}`);
        }
      });
    });

    test('rate windows: a limit of 0 reads the count and counts nothing (how a right webhook key looks at its address)', async () => {
      await withStore(async (a) => {
        const windowMs = time.ttl(RATE_CASE_WINDOW_MS);
        const read = async () => {
          const got = await a.consumeRateLimit('ip:read', 0, windowMs);
          assert.ok(got.retryAfterMs > 0 && got.retryAfterMs <= windowMs, `retry after ${got.retryAfterMs}`);
          return [got.allowed, got.count];
        };
        assert.deepEqual(await read(), [false, 0]);
        await a.consumeRateLimit('ip:read', 5, windowMs);
        await a.consumeRateLimit('ip:read', 5, windowMs);
        for (let i = 0; i < 3; i++) assert.deepEqual(await read(), [false, 2]);
        const counted = await a.consumeRateLimit('ip:read', 5, windowMs);
        assert.deepEqual([counted.allowed, counted.count], [true, 3]);
      });
    });
  });
}
