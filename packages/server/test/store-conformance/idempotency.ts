/** Idempotency keys: one reservation across instances, and how long a pending or a done key lives. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Harness } from './harness.js';

export function describeIdempotencyKeys({ withBackend, serverClock }: Harness): void {
  test("idempotency keys: reserved once across instances; pending and done answer the holder's fingerprint; release frees a pending key only", async () => {
    await withBackend(async (a, { peer }) => {
      const b = await peer();
      const long = { ttlMs: 3600_000, pendingTtlMs: 600_000 };
      assert.deepEqual(await a.reserveIdempotencyKey('sessions:h:k1', 'fp-1', long), { state: 'reserved' });
      assert.deepEqual(await b.reserveIdempotencyKey('sessions:h:k1', 'fp-1', long), { state: 'pending', fingerprint: 'fp-1' });
      assert.deepEqual(
        await b.reserveIdempotencyKey('sessions:h:k1', 'fp-2', long),
        { state: 'pending', fingerprint: 'fp-1' },
        "the holder's fingerprint, for the caller to compare",
      );
      await a.completeIdempotencyKey('sessions:h:k1', 'ses_result', 3600_000);
      const done = { state: 'done', fingerprint: 'fp-1', result: 'ses_result' };
      assert.deepEqual(await b.reserveIdempotencyKey('sessions:h:k1', 'fp-2', long), done);
      assert.deepEqual(await a.reserveIdempotencyKey('sessions:h:k1', 'fp-1', long), done);
      await b.releaseIdempotencyKey('sessions:h:k1');
      assert.deepEqual(
        await a.reserveIdempotencyKey('sessions:h:k1', 'fp-1', long),
        done,
        "a finished request's result outlives a late release",
      );

      const race = await Promise.all(
        Array.from({ length: 8 }, (_, i) => (i % 2 ? b : a).reserveIdempotencyKey('sessions:h:k2', `fp-${i}`, long)),
      );
      const winner = race.findIndex((r) => r.state === 'reserved');
      assert.equal(race.filter((r) => r.state === 'reserved').length, 1, 'one reservation wins');
      for (const r of race) if (r.state !== 'reserved') assert.deepEqual(r, { state: 'pending', fingerprint: `fp-${winner}` });
      assert.deepEqual(await a.reserveIdempotencyKey('sessions:h:k3', 'fp-1', long), { state: 'reserved' }, 'keys are independent');

      await b.releaseIdempotencyKey('sessions:h:k2');
      assert.deepEqual(
        await a.reserveIdempotencyKey('sessions:h:k2', 'fp-retry', long),
        { state: 'reserved' },
        'a released key is free at once',
      );
      await a.releaseIdempotencyKey('sessions:h:never-held');
      await a.completeIdempotencyKey('sessions:h:never-reserved', 'orphan', 3600_000);
      assert.deepEqual(
        await b.reserveIdempotencyKey('sessions:h:never-reserved', 'fp-1', long),
        { state: 'reserved' },
        'completing a key nobody holds records nothing',
      );
    });
  });

  test('idempotency keys: a pending reservation lapses after pendingTtlMs, a result after its ttl', async () => {
    await withBackend(async (a, { clock, peer }) => {
      const b = await peer();
      const short = serverClock ? 300 : 10_000;
      const lapse = () => clock.advance(short + (serverClock ? 700 : 1));
      const long = { ttlMs: 3600_000, pendingTtlMs: 3600_000 };
      assert.deepEqual(await a.reserveIdempotencyKey('k-abandoned', 'fp-1', { ttlMs: 3600_000, pendingTtlMs: short }), {
        state: 'reserved',
      });
      assert.deepEqual(await a.reserveIdempotencyKey('k-short-result', 'fp-1', { ttlMs: 3600_000, pendingTtlMs: short }), {
        state: 'reserved',
      });
      await a.completeIdempotencyKey('k-short-result', 'r-short', short);
      assert.deepEqual(await a.reserveIdempotencyKey('k-finished', 'fp-1', { ttlMs: 3600_000, pendingTtlMs: short }), {
        state: 'reserved',
      });
      await a.completeIdempotencyKey('k-finished', 'r-finished', 3600_000);
      assert.deepEqual(await a.reserveIdempotencyKey('k-slow', 'fp-1', long), { state: 'reserved' });
      await lapse();

      assert.deepEqual(
        await b.reserveIdempotencyKey('k-abandoned', 'fp-2', long),
        { state: 'reserved' },
        'a holder that never finished holds the key no more',
      );
      assert.deepEqual(
        await b.reserveIdempotencyKey('k-short-result', 'fp-2', long),
        { state: 'reserved' },
        'a result is forgotten after its ttl',
      );
      assert.deepEqual(
        await b.reserveIdempotencyKey('k-finished', 'fp-2', long),
        { state: 'done', fingerprint: 'fp-1', result: 'r-finished' },
        'a completed key no longer lapses as a pending one',
      );
      assert.deepEqual(
        await b.reserveIdempotencyKey('k-slow', 'fp-2', long),
        { state: 'pending', fingerprint: 'fp-1' },
        'pending until its own pendingTtlMs',
      );
    });
  });
}
