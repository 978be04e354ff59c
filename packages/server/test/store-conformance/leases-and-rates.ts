/** Leases (the pollers' one-holder locks) and rate-limit windows, shared by every instance of a store; and its liveness probe. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Harness } from './harness.js';

export function describeLeasesAndRates({ withStore, serverClock }: Harness): void {
  test('leases: one holder at a time across instances; renew, release, and a lapsed lease is free', async () => {
    await withStore(async (a, { clock, peer }) => {
      const b = await peer();
      assert.equal(await a.acquireLease('poll:tok-1', 'instance-a', 30_000), true);
      assert.equal(await b.acquireLease('poll:tok-1', 'instance-b', 30_000), false, 'held by a');
      assert.equal(await a.acquireLease('poll:tok-1', 'instance-a', 30_000), true, 'the holder may take it again');
      assert.equal(await b.renewLease('poll:tok-1', 'instance-b', 30_000), false);
      assert.equal(await a.renewLease('poll:tok-1', 'instance-a', 30_000), true);
      assert.equal(await b.releaseLease('poll:tok-1', 'instance-b'), false, 'only the holder releases');
      assert.equal(await b.acquireLease('poll:tok-2', 'instance-b', 30_000), true, 'leases are per name');
      assert.equal(await a.releaseLease('poll:tok-1', 'instance-a'), true);
      assert.equal(await a.releaseLease('poll:tok-1', 'instance-a'), false, 'already released');
      assert.equal(await b.acquireLease('poll:tok-1', 'instance-b', 30_000), true, 'free after release');

      const ttl = serverClock ? 300 : 10_000;
      assert.equal(await a.acquireLease('poll:tok-3', 'instance-a', ttl), true);
      await clock.advance(ttl + (serverClock ? 700 : 1));
      assert.equal(await a.renewLease('poll:tok-3', 'instance-a', ttl), false, 'a lapsed lease cannot be renewed');
      assert.equal(await b.acquireLease('poll:tok-3', 'instance-b', 30_000), true, 'a lapsed lease goes to whoever asks');
      assert.equal(await a.releaseLease('poll:tok-3', 'instance-a'), false);
      assert.equal(await a.acquireLease('poll:tok-3', 'instance-a', 30_000), false);
    });
  });

  test("lease renewal in one call: only the caller's live leases are renewed, and exactly those are returned", async () => {
    await withStore(async (a, { clock, peer }) => {
      const b = await peer();
      const short = serverClock ? 300 : 10_000;
      const lapse = () => clock.advance(short + (serverClock ? 700 : 1));
      assert.deepEqual(await a.renewLeases([], 'instance-a', 30_000), [], 'nothing asked, nothing renewed');

      assert.equal(await a.acquireLease('poll:lapsed', 'instance-a', short), true);
      await lapse();
      for (const mine of ['poll:mine-1', 'poll:mine-2', 'poll:left-out'])
        assert.equal(await a.acquireLease(mine, 'instance-a', short), true);
      assert.equal(await b.acquireLease('poll:theirs', 'instance-b', 30_000), true);

      const renewed = await a.renewLeases(
        ['poll:mine-1', 'poll:theirs', 'poll:never-taken', 'poll:lapsed', 'poll:mine-2', 'poll:mine-1'],
        'instance-a',
        30_000,
      );
      assert.deepEqual([...renewed].sort(), ['poll:mine-1', 'poll:mine-2'], 'own live leases only, each once');

      await lapse();
      assert.equal(await b.acquireLease('poll:mine-1', 'instance-b', 30_000), false, 'renewed: still held past its first ttl');
      assert.equal(await b.acquireLease('poll:mine-2', 'instance-b', 30_000), false);
      assert.equal(await b.acquireLease('poll:left-out', 'instance-b', 30_000), true, 'a lease not named is not renewed');
      assert.equal(await b.acquireLease('poll:lapsed', 'instance-b', 30_000), true, 'a lapsed lease is not revived');
      assert.equal(await b.acquireLease('poll:never-taken', 'instance-b', 30_000), true, 'a free lease is not taken by a renewal');
      assert.equal(await a.acquireLease('poll:theirs', 'instance-a', 30_000), false, "another owner's lease stays theirs");
      assert.deepEqual(
        await b.renewLeases(['poll:theirs', 'poll:mine-1', 'poll:left-out'], 'instance-b', 30_000).then((r) => [...r].sort()),
        ['poll:left-out', 'poll:theirs'],
      );
    });
  });

  test("lease renewal in one call: over a thousand leases, two in three someone else's", async () => {
    await withStore(async (a, { peer }) => {
      const b = await peer();
      const names = Array.from({ length: 1_201 }, (_, i) => `poll:many-${i}`);
      // A pattern that no batch size divides, so a renewal answer read against the wrong lease shows.
      const mine = (i: number) => i % 3 === 0;
      await Promise.all(names.map((n, i) => (mine(i) ? a.acquireLease(n, 'instance-a', 30_000) : b.acquireLease(n, 'instance-b', 30_000))));
      const renewed = await a.renewLeases(names, 'instance-a', 30_000);
      assert.equal(renewed.length, 401);
      assert.deepEqual(new Set(renewed), new Set(names.filter((_, i) => mine(i))));
    });
  });

  test('rate limit: a fixed window per key shared by every instance; refused requests do not count', async () => {
    await withStore(async (a, { clock, peer }) => {
      const b = await peer();
      const window = 60_000;
      const seen = [];
      for (let i = 0; i < 3; i++) seen.push(await (i % 2 ? b : a).consumeRateLimit('ip:203.0.113.9', 3, window));
      assert.deepEqual(
        seen.map((d) => [d.allowed, d.count]),
        [
          [true, 1],
          [true, 2],
          [true, 3],
        ],
      );
      for (const s of [a, b, a]) {
        const refused = await s.consumeRateLimit('ip:203.0.113.9', 3, window);
        assert.equal(refused.allowed, false);
        assert.equal(refused.count, 3, 'a refused request is not counted');
        assert.ok(refused.retryAfterMs > 0 && refused.retryAfterMs <= window, `retry after ${refused.retryAfterMs} ms`);
      }
      assert.deepEqual(
        await b.consumeRateLimit('ip:2001:db8::1', 3, window).then((d) => [d.allowed, d.count]),
        [true, 1],
        'keys are independent',
      );
      assert.equal((await a.consumeRateLimit('ip:off', 0, window)).allowed, false, 'a limit of 0 lets nothing in');

      const short = serverClock ? 300 : 10_000;
      assert.equal((await a.consumeRateLimit('ip:198.51.100.7', 1, short)).allowed, true);
      assert.equal((await b.consumeRateLimit('ip:198.51.100.7', 1, short)).allowed, false);
      await clock.advance(short + (serverClock ? 700 : 1));
      const again = await b.consumeRateLimit('ip:198.51.100.7', 1, short);
      assert.deepEqual([again.allowed, again.count], [true, 1], 'a new window starts from zero');
    });
  });

  test('ping answers while the store is up', async () => {
    await withStore(async (s) => {
      await s.ping();
    });
  });
}
