/**
 * The one test suite every store passes: `describeStore(name, factory)` from each
 * store-<kind>.test.ts. Anything the companion relies on a store for is asserted here, so a store
 * that passes is a drop-in replacement for the others.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { OnboardingRecord, Store } from '../src/store/store.js';

/** A clock the test moves by hand. With `serverClock`, moving it also waits as long in real time. */
export interface TestClock {
  now(): number;
  advance(ms: number): Promise<void>;
}

export interface StoreFixture {
  /** A store on fresh, empty state. */
  store: Store;
  /** Another instance on the same state (another connection, client or process handle; the same object where there is no other). */
  openPeer(): Promise<Store>;
  /** Frees what the fixture holds (files, keys); stores are closed by the suite. */
  cleanup?(): Promise<void>;
}

export type StoreFactory = (clock: TestClock) => Promise<StoreFixture>;

export interface ConformanceOptions {
  /**
   * Leases and rate windows follow the store server's own clock (Redis TTLs): the suite then
   * uses short TTLs and waits them out, with wide margins and no upper bound on elapsed time.
   */
  serverClock?: boolean;
}

const START = Date.parse('2030-01-01T00:00:00.000Z');

function testClock(serverClock: boolean): TestClock {
  let offset = 0;
  return {
    now: () => (serverClock ? Date.now() : START + offset),
    async advance(ms) {
      offset += ms;
      if (serverClock) await new Promise((r) => setTimeout(r, ms));
    },
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

export function describeStore(name: string, factory: StoreFactory, options: ConformanceOptions = {}): void {
  const serverClock = options.serverClock ?? false;

  /** Runs `body` with a fresh store and its clock; closes every store opened, whatever happens. */
  async function withStore(body: (s: Store, ctx: { clock: TestClock; peer: () => Promise<Store> }) => Promise<void>): Promise<void> {
    const clock = testClock(serverClock);
    const fixture = await factory(clock);
    const opened = new Set<Store>([fixture.store]);
    const peer = async () => {
      const p = await fixture.openPeer();
      opened.add(p);
      return p;
    };
    try {
      await body(fixture.store, { clock, peer });
    } finally {
      for (const s of opened) await s.close?.();
      await fixture.cleanup?.();
    }
  }

  const create = (s: Store, token: string, createdAt = iso(START), over: Partial<OnboardingRecord> = {}) =>
    s.create({ tokenOnboarding: token, status: 'IN_PROCESS', createdAt, accessKeyHash: `hash-${token}`, ...over });

  describe(`${name} store`, () => {
    test('create and read: the record comes back as written, with one creation entry; callers get copies', async () => {
      await withStore(async (s) => {
        const created = await create(s, 'tok-a', '2030-01-01T10:00:00.000Z');
        const expected: OnboardingRecord = {
          tokenOnboarding: 'tok-a',
          status: 'IN_PROCESS',
          createdAt: '2030-01-01T10:00:00.000Z',
          updatedAt: '2030-01-01T10:00:00.000Z',
          accessKeyHash: 'hash-tok-a',
          history: [{ status: 'IN_PROCESS', at: '2030-01-01T10:00:00.000Z', source: 'creation' }],
        };
        assert.deepEqual(created, expected);
        assert.deepEqual(await s.get('tok-a'), expected);
        assert.equal(await s.get('tok-unknown'), null);

        const read = (await s.get('tok-a'))!;
        read.history.push({ status: 'APPROVED', at: iso(START), source: 'poll' });
        read.status = 'APPROVED';
        assert.deepEqual(await s.get('tok-a'), expected, 'editing what was read changes nothing stored');

        const withExtras = await create(s, 'tok-b', '2030-01-01T11:00:00.000Z', {
          externalId: 'ext-1',
          history: [
            { status: 'IN_PROCESS', at: '2030-01-01T11:00:00.000Z', source: 'creation' },
            { status: 'IN_PROCESS', at: '2030-01-01T11:00:01.000Z', source: 'poll' },
          ],
        });
        assert.equal(withExtras.externalId, 'ext-1');
        assert.deepEqual(await s.get('tok-b'), withExtras);
        assert.equal((await s.get('tok-b'))!.history.length, 2);
      });
    });

    test('status changes: repeats change nothing, terminal is final, the default time is the injected clock', async () => {
      await withStore(async (s, { clock }) => {
        await create(s, 'tok-s');
        const repeat = (await s.applyStatus('tok-s', { status: 'IN_PROCESS', source: 'poll' }))!;
        assert.equal(repeat.changed, false);
        assert.equal(repeat.record.history.length, 1);

        await clock.advance(1_000);
        const when = clock.now();
        const done = (await s.applyStatus('tok-s', { status: 'ERROR', source: 'webhook', externalId: 'e-1' }))!;
        assert.equal(done.changed, true);
        assert.equal(done.record.status, 'ERROR');
        assert.equal(done.record.externalId, 'e-1');
        if (!serverClock) {
          assert.equal(done.record.updatedAt, iso(when));
          assert.equal(done.record.finishedAt, iso(when));
        } else {
          assert.ok(Date.parse(done.record.finishedAt!) >= when, 'stamped by the clock, not earlier');
        }
        assert.deepEqual(done.record.history.map((h) => [h.status, h.source]), [['IN_PROCESS', 'creation'], ['ERROR', 'webhook']]);

        for (const status of ['APPROVED', 'REFUSED', 'IN_PROCESS', 'ERROR'] as const) {
          const late = (await s.applyStatus('tok-s', { status, source: 'poll', at: '2030-02-01T00:00:00.000Z' }))!;
          assert.equal(late.changed, false, `${status} after ERROR changes nothing`);
          assert.equal(late.record.status, 'ERROR');
        }
        const stored = (await s.get('tok-s'))!;
        assert.deepEqual(stored, done.record, 'nothing moved after the terminal status');
        assert.equal(await s.applyStatus('tok-unknown', { status: 'APPROVED', source: 'poll' }), null);

        // A repeat may bring the externalId an earlier message lacked; it never replaces one.
        await create(s, 'tok-x');
        await s.applyStatus('tok-x', { status: 'REFUSED', source: 'poll', at: '2030-01-01T00:00:05.000Z' });
        const filled = (await s.applyStatus('tok-x', { status: 'REFUSED', source: 'webhook', externalId: 'late-id' }))!;
        assert.equal(filled.changed, false);
        assert.equal(filled.record.externalId, 'late-id');
        assert.equal((await s.get('tok-x'))!.externalId, 'late-id');
        await s.applyStatus('tok-x', { status: 'REFUSED', source: 'webhook', externalId: 'other-id' });
        assert.equal((await s.get('tok-x'))!.externalId, 'late-id');
        assert.equal((await s.get('tok-x'))!.finishedAt, '2030-01-01T00:00:05.000Z', 'an explicit time is kept');
      });
    });

    test('subscription: listeners hear real changes of their onboarding only, each with its own copy', async () => {
      await withStore(async (s) => {
        await create(s, 'tok-1');
        await create(s, 'tok-2');
        const heard: string[] = [];
        const other: string[] = [];
        const offBroken = s.subscribe('tok-1', () => {
          throw new Error('a broken listener');
        });
        const off = s.subscribe('tok-1', (r) => {
          heard.push(`${r.tokenOnboarding}:${r.status}`);
          r.history.length = 0;
        });
        const offOther = s.subscribe('tok-2', (r) => other.push(r.status));
        const second: string[] = [];
        const offSecond = s.subscribe('tok-1', (r) => second.push(`${r.status}:${r.history.length}`));

        await s.applyStatus('tok-1', { status: 'IN_PROCESS', source: 'poll' });
        await s.applyStatus('tok-1', { status: 'APPROVED', source: 'webhook' });
        await s.applyStatus('tok-1', { status: 'APPROVED', source: 'poll' });
        await s.applyStatus('tok-1', { status: 'REFUSED', source: 'poll' });
        assert.deepEqual(heard, ['tok-1:APPROVED']);
        assert.deepEqual(second, ['APPROVED:2'], 'a listener that edits its record does not change what others get');
        assert.deepEqual(other, []);
        assert.equal((await s.get('tok-1'))!.history.length, 2);

        off();
        offBroken();
        offSecond();
        offOther();
        await create(s, 'tok-1');
        await s.applyStatus('tok-1', { status: 'ERROR', source: 'webhook' });
        assert.deepEqual(heard, ['tok-1:APPROVED'], 'nothing after unsubscribing');
      });
    });

    test('in-process listing: only onboardings still IN_PROCESS', async () => {
      await withStore(async (s) => {
        assert.deepEqual(await s.listInProcess(), []);
        for (const t of ['tok-p1', 'tok-p2', 'tok-p3', 'tok-p4']) await create(s, t);
        await s.applyStatus('tok-p2', { status: 'APPROVED', source: 'webhook' });
        await s.applyStatus('tok-p4', { status: 'ERROR', source: 'poll' });
        assert.deepEqual((await s.listInProcess()).sort(), ['tok-p1', 'tok-p3']);
      });
    });

    test('expiry: finished before the retention cutoff or created before the age cutoff, nothing else', async () => {
      await withStore(async (s) => {
        const day = 24 * 3600_000;
        await create(s, 'tok-old-open', iso(START - 3 * day));
        await create(s, 'tok-old-done', iso(START - 3 * day));
        await s.applyStatus('tok-old-done', { status: 'APPROVED', source: 'poll', at: iso(START - 3 * day + 60_000) });
        await create(s, 'tok-done-long-ago', iso(START - day - 3600_000));
        await s.applyStatus('tok-done-long-ago', { status: 'REFUSED', source: 'webhook', at: iso(START - day - 60_000) });
        await create(s, 'tok-done-recently', iso(START - day - 3600_000));
        await s.applyStatus('tok-done-recently', { status: 'REFUSED', source: 'webhook', at: iso(START - 60_000) });
        await create(s, 'tok-open', iso(START - 3600_000));

        const n = await s.expire({ finishedBefore: new Date(START - day), createdBefore: new Date(START - 2 * day) });
        assert.equal(n, 3);
        for (const gone of ['tok-old-open', 'tok-old-done', 'tok-done-long-ago']) assert.equal(await s.get(gone), null, `${gone} expired`);
        for (const kept of ['tok-done-recently', 'tok-open']) assert.ok(await s.get(kept), `${kept} kept`);
        assert.deepEqual(await s.listInProcess(), ['tok-open']);
        assert.equal(await s.expire({ finishedBefore: new Date(START - day), createdBefore: new Date(START - 2 * day) }), 0, 'a second sweep finds nothing');

        // A token seen again after its record expired starts a fresh history.
        await create(s, 'tok-old-done', iso(START));
        assert.deepEqual((await s.get('tok-old-done'))!.history.map((h) => h.source), ['creation']);
      });
    });

    test('two writers on one onboarding: one terminal status wins, never regresses, repeats report unchanged', async () => {
      await withStore(async (a, { peer }) => {
        const b = await peer();
        const tokens = Array.from({ length: 12 }, (_, i) => `tok-race-${i}`);
        for (const t of tokens) await create(a, t);
        const heardByA: string[] = [];
        const offs = tokens.map((t) => a.subscribe(t, (r) => heardByA.push(`${t}:${r.status}`)));

        const attempts = tokens.flatMap((t) => [
          ...Array.from({ length: 4 }, () => a.applyStatus(t, { status: 'APPROVED', source: 'webhook' }).then((r) => ({ t, writer: 'a', r }))),
          ...Array.from({ length: 4 }, () => b.applyStatus(t, { status: 'REFUSED', source: 'poll' }).then((r) => ({ t, writer: 'b', r }))),
          b.applyStatus(t, { status: 'IN_PROCESS', source: 'poll' }).then((r) => ({ t, writer: 'b', r })),
        ]);
        const results = await Promise.all(attempts);
        for (const t of tokens) {
          const mine = results.filter((x) => x.t === t);
          const winners = mine.filter((x) => x.r!.changed);
          assert.equal(winners.length, 1, `${t}: exactly one update changed the status`);
          const final = winners[0]!.r!.record.status;
          assert.equal(final, winners[0]!.writer === 'a' ? 'APPROVED' : 'REFUSED');
          const [fromA, fromB] = [await a.get(t), await b.get(t)];
          assert.equal(fromA!.status, final);
          assert.deepEqual(fromA, fromB, `${t}: both instances read the same record`);
          assert.deepEqual(fromA!.history.map((h) => h.status), ['IN_PROCESS', final]);
          for (const later of ['APPROVED', 'REFUSED', 'ERROR', 'IN_PROCESS'] as const) {
            const again = (await (later === 'REFUSED' ? b : a).applyStatus(t, { status: later, source: 'poll' }))!;
            assert.equal(again.changed, false);
            assert.equal(again.record.status, final);
          }
        }
        // A heard each change once, including those B won (for a peer on the same feed, at once; for a shared store, by pub/sub).
        await eventually(() => heardByA.length >= tokens.length);
        assert.equal(new Set(heardByA).size, heardByA.length, 'no change heard twice');
        assert.deepEqual(heardByA.map((h) => h.split(':')[0]).sort(), [...tokens].sort());
        offs.forEach((off) => off());
      });
    });

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

    test('lease renewal in one call: only the caller\'s live leases are renewed, and exactly those are returned', async () => {
      await withStore(async (a, { clock, peer }) => {
        const b = await peer();
        const short = serverClock ? 300 : 10_000;
        const lapse = () => clock.advance(short + (serverClock ? 700 : 1));
        assert.deepEqual(await a.renewLeases([], 'instance-a', 30_000), [], 'nothing asked, nothing renewed');

        assert.equal(await a.acquireLease('poll:lapsed', 'instance-a', short), true);
        await lapse();
        for (const mine of ['poll:mine-1', 'poll:mine-2', 'poll:left-out']) assert.equal(await a.acquireLease(mine, 'instance-a', short), true);
        assert.equal(await b.acquireLease('poll:theirs', 'instance-b', 30_000), true);

        const renewed = await a.renewLeases(['poll:mine-1', 'poll:theirs', 'poll:never-taken', 'poll:lapsed', 'poll:mine-2', 'poll:mine-1'], 'instance-a', 30_000);
        assert.deepEqual([...renewed].sort(), ['poll:mine-1', 'poll:mine-2'], 'own live leases only, each once');

        await lapse();
        assert.equal(await b.acquireLease('poll:mine-1', 'instance-b', 30_000), false, 'renewed: still held past its first ttl');
        assert.equal(await b.acquireLease('poll:mine-2', 'instance-b', 30_000), false);
        assert.equal(await b.acquireLease('poll:left-out', 'instance-b', 30_000), true, 'a lease not named is not renewed');
        assert.equal(await b.acquireLease('poll:lapsed', 'instance-b', 30_000), true, 'a lapsed lease is not revived');
        assert.equal(await b.acquireLease('poll:never-taken', 'instance-b', 30_000), true, 'a free lease is not taken by a renewal');
        assert.equal(await a.acquireLease('poll:theirs', 'instance-a', 30_000), false, 'another owner\'s lease stays theirs');
        assert.deepEqual(await b.renewLeases(['poll:theirs', 'poll:mine-1', 'poll:left-out'], 'instance-b', 30_000).then((r) => [...r].sort()), ['poll:left-out', 'poll:theirs']);
      });
    });

    test('lease renewal in one call: over a thousand leases, two in three someone else\'s', async () => {
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
        assert.deepEqual(seen.map((d) => [d.allowed, d.count]), [[true, 1], [true, 2], [true, 3]]);
        for (const s of [a, b, a]) {
          const refused = await s.consumeRateLimit('ip:203.0.113.9', 3, window);
          assert.equal(refused.allowed, false);
          assert.equal(refused.count, 3, 'a refused request is not counted');
          assert.ok(refused.retryAfterMs > 0 && refused.retryAfterMs <= window, `retry after ${refused.retryAfterMs} ms`);
        }
        assert.deepEqual(await b.consumeRateLimit('ip:2001:db8::1', 3, window).then((d) => [d.allowed, d.count]), [true, 1], 'keys are independent');
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
  });
}

/** Waits for `condition`, polling; fails only after a wide margin, so a slow machine is not a failure. */
export async function eventually(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
