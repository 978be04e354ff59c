/**
 * The one test suite every store passes: `describeStore(name, factory)` from each
 * store-<kind>.test.ts. Anything the companion relies on a store for is asserted here, so a store
 * that passes is a drop-in replacement for the others.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { BackendState, OutboxEntry, SessionRecord } from '../src/store/backend-state.js';
import type { OnboardingRecord, Store } from '../src/store/store.js';
import { createJsonLogger } from '../src/logger.js';
import { SessionService } from '../src/sessions/session-service.js';
import { HandoffService } from '../src/handoff/handoff-service.js';
import { holds } from '../src/handoff/handoff-rules.js';
import { describeRuleTables } from './store-conformance-tables.js';

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
        assert.deepEqual(
          done.record.history.map((h) => [h.status, h.source]),
          [
            ['IN_PROCESS', 'creation'],
            ['ERROR', 'webhook'],
          ],
        );

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
        assert.equal(
          await s.expire({ finishedBefore: new Date(START - day), createdBefore: new Date(START - 2 * day) }),
          0,
          'a second sweep finds nothing',
        );

        // A token seen again after its record expired starts a fresh history.
        await create(s, 'tok-old-done', iso(START));
        assert.deepEqual(
          (await s.get('tok-old-done'))!.history.map((h) => h.source),
          ['creation'],
        );
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
          ...Array.from({ length: 4 }, () =>
            a.applyStatus(t, { status: 'APPROVED', source: 'webhook' }).then((r) => ({ t, writer: 'a', r })),
          ),
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
          assert.deepEqual(
            fromA!.history.map((h) => h.status),
            ['IN_PROCESS', final],
          );
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
        await Promise.all(
          names.map((n, i) => (mine(i) ? a.acquireLease(n, 'instance-a', 30_000) : b.acquireLease(n, 'instance-b', 30_000))),
        );
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
  });

  describeRuleTables(name, withStore, serverClock);

  type Backend = Store & BackendState;
  const BACKEND_METHODS: Array<keyof BackendState> = [
    'createSession',
    'getSession',
    'findSessionBySecret',
    'addSessionSecret',
    'replaceSession',
    'listSessionsByReference',
    'listSessionsByStatus',
    'reserveIdempotencyKey',
    'completeIdempotencyKey',
    'releaseIdempotencyKey',
    'addAccessKey',
    'enqueueNotification',
    'dueNotifications',
    'updateNotification',
    'getNotification',
    'listNotifications',
    'purgeBackendState',
    'subscribeSession',
    'putHandoffKey',
    'findHandoffKey',
  ];

  /** The store as the backend's routes use it; one without the backend's part fails here, naming what it lacks. */
  function backend(s: Store): Backend {
    for (const m of BACKEND_METHODS) assert.equal(typeof (s as Partial<Backend>)[m], 'function', `the ${name} store has BackendState.${m}`);
    return s as Backend;
  }

  async function withBackend(body: (s: Backend, ctx: { clock: TestClock; peer: () => Promise<Backend> }) => Promise<void>): Promise<void> {
    await withStore((s, { clock, peer }) => body(backend(s), { clock, peer: async () => backend(await peer()) }));
  }

  const sha = (text: string) => createHash('sha256').update(text).digest('hex');
  const session = (id: string, over: Partial<SessionRecord> = {}): SessionRecord => ({
    id,
    version: 1,
    reference: 'user-8812',
    status: 'open',
    createdAt: iso(START),
    expiresAt: iso(START + 1800_000),
    documentTypes: [],
    locale: 'pt-BR',
    metadata: {},
    ...over,
  });
  const secretsOf = (id: string) => ({ client: sha(`client-${id}`), capture: sha(`capture-${id}`) });
  const entry = (id: string, over: Partial<OutboxEntry> = {}): OutboxEntry => ({
    id,
    type: 'session.completed',
    body: JSON.stringify({ id, type: 'session.completed', data: { n: 1 } }),
    orderKey: 'ses_1',
    createdAt: iso(START),
    state: 'pending',
    attempts: 0,
    nextAttemptMs: START,
    ...over,
  });
  const ids = (list: Array<{ id: string }>) => list.map((x) => x.id);

  describe(`${name} store: the backend's state`, () => {
    test('sessions: created at version 1 and read back as written by every instance; callers get copies', async () => {
      await withBackend(async (a, { peer }) => {
        const b = await peer();
        const full = session('ses_full', {
          status: 'completed',
          taxId: { kind: 'cpf', value: '52998224725' },
          name: 'Maria Silva',
          documentTypes: ['CNH', 'RG'],
          locale: 'en',
          returnUrl: 'https://app.example/kyc/done',
          metadata: { plan: 'gold', team: 'b' },
          claim: { key: 'idem-1', fingerprint: sha('body'), at: iso(START + 1_000) },
          tokenOnboarding: 'tok-full',
          outcome: { status: 'ERROR', externalId: 'ext-1', at: iso(START + 2_000) },
          endedAt: iso(START + 2_000),
        });
        const bare = session('ses_bare');
        const given = structuredClone(full);
        await a.createSession(given, secretsOf('ses_full'));
        await a.createSession(structuredClone(bare), secretsOf('ses_bare'));
        given.metadata.plan = 'changed after the call';
        assert.deepEqual(await b.getSession('ses_full'), full);
        assert.deepEqual(await b.getSession('ses_bare'), bare);
        assert.equal(await b.getSession('ses_unknown'), null);

        const read = (await a.getSession('ses_full'))!;
        read.metadata.plan = 'silver';
        read.documentTypes.push('CIN');
        read.claim!.key = 'other';
        read.taxId!.value = '00000000000';
        read.status = 'open';
        assert.deepEqual(await a.getSession('ses_full'), full, 'editing what was read changes nothing stored');
      });
    });

    test('session secrets: found by hash, per kind, by every instance; added secrets open the same session and earlier ones stay', async () => {
      await withBackend(async (a, { peer }) => {
        const b = await peer();
        const one = session('ses_1');
        await a.createSession(one, secretsOf('ses_1'));
        await a.createSession(session('ses_2'), secretsOf('ses_2'));
        assert.deepEqual(await b.findSessionBySecret('client', secretsOf('ses_1').client), one);
        assert.equal((await b.findSessionBySecret('capture', secretsOf('ses_2').capture))?.id, 'ses_2');
        assert.equal((await b.findSessionBySecret('client', secretsOf('ses_2').client))?.id, 'ses_2');
        assert.equal(await b.findSessionBySecret('capture', secretsOf('ses_1').client), null, 'a client secret is no capture token');
        assert.equal(await b.findSessionBySecret('client', secretsOf('ses_1').capture), null, 'a capture token is no client secret');
        assert.equal(await b.findSessionBySecret('client', sha('never issued')), null);
        assert.equal(await b.findSessionBySecret('client', 'client-ses_1'), null, 'found by the hash, not by what was hashed');

        assert.equal(await b.addSessionSecret('ses_1', 'client', sha('client-ses_1-replay')), true);
        assert.equal(await a.addSessionSecret('ses_1', 'capture', sha('capture-ses_1-replay')), true);
        assert.equal(await a.addSessionSecret('ses_unknown', 'client', sha('client-orphan')), false);
        assert.equal(await b.findSessionBySecret('client', sha('client-orphan')), null, 'nothing added for an unknown session');
        assert.equal((await a.findSessionBySecret('client', sha('client-ses_1-replay')))?.id, 'ses_1');
        assert.equal((await a.findSessionBySecret('capture', sha('capture-ses_1-replay')))?.id, 'ses_1');
        assert.equal((await a.findSessionBySecret('client', secretsOf('ses_1').client))?.id, 'ses_1', 'earlier secrets stay valid');
        assert.equal(await a.findSessionBySecret('capture', sha('client-ses_1-replay')), null, 'an added secret is of its kind only');

        const next = { ...one, version: 2, status: 'submitted' as const, tokenOnboarding: 'tok-1' };
        assert.equal(await a.replaceSession(next, 1), true);
        assert.deepEqual(
          await b.findSessionBySecret('client', sha('client-ses_1-replay')),
          next,
          'a secret finds the session as it is now',
        );
      });
    });

    test('sessions change by compare-and-set: of instances racing from one version exactly one wins; a stale version loses', async () => {
      await withBackend(async (a, { peer }) => {
        const b = await peer();
        const sessionIds = Array.from({ length: 8 }, (_, i) => `ses_race_${i}`);
        for (const id of sessionIds) await a.createSession(session(id), secretsOf(id));
        const results = await Promise.all(
          sessionIds.flatMap((id) =>
            [a, b, a, b].map((s, i) =>
              s
                .replaceSession(session(id, { version: 2, status: 'submitted', tokenOnboarding: `tok-${id}-${i}` }), 1)
                .then((won) => ({ id, i, won })),
            ),
          ),
        );
        for (const id of sessionIds) {
          const winners = results.filter((r) => r.id === id && r.won);
          assert.equal(winners.length, 1, `${id}: exactly one replacement won`);
          const stored = (await b.getSession(id))!;
          assert.equal(stored.version, 2);
          assert.equal(stored.tokenOnboarding, `tok-${id}-${winners[0]!.i}`, "the winner's record is the one stored");
          assert.deepEqual(await a.getSession(id), stored);
        }

        const id = sessionIds[0]!;
        const current = (await a.getSession(id))!;
        assert.equal(await b.replaceSession({ ...current, version: 2, status: 'expired' }, 1), false, 'a stale version loses');
        assert.equal(await b.replaceSession({ ...current, version: 4, status: 'expired' }, 3), false, 'so does a version never reached');
        assert.deepEqual(await a.getSession(id), current, 'and a lost replacement changes nothing');
        const completed = { ...current, version: 3, status: 'completed' as const, endedAt: iso(START + 60_000) };
        assert.equal(await b.replaceSession(completed, 2), true);
        assert.deepEqual(await a.getSession(id), completed);

        assert.equal(await a.replaceSession(session('ses_unknown', { version: 2 }), 1), false, 'an unknown session is not replaced');
        assert.equal(await b.getSession('ses_unknown'), null, 'nor created');

        // The new version replaces the whole record: a field it leaves out is gone.
        const claimed = session('ses_claimed', { claim: { key: 'k', fingerprint: 'f', at: iso(START) } });
        await a.createSession(claimed, secretsOf('ses_claimed'));
        const released: SessionRecord = { ...claimed, version: 2 };
        delete released.claim;
        assert.equal(await b.replaceSession(released, 1), true);
        assert.deepEqual(await a.getSession('ses_claimed'), released);
      });
    });

    test('sessions by reference: that reference only, newest first, at most the limit, as every instance sees them', async () => {
      await withBackend(async (a, { peer }) => {
        const b = await peer();
        // Created out of order, so insertion order cannot pass for age.
        for (const i of [2, 0, 4, 1, 3])
          await a.createSession(session(`ses_ref_${i}`, { createdAt: iso(START + i * 60_000) }), secretsOf(`ses_ref_${i}`));
        const other = session('ses_other', { reference: 'user-9999', createdAt: iso(START + 600_000) });
        await a.createSession(other, secretsOf('ses_other'));
        assert.deepEqual(ids(await b.listSessionsByReference('user-8812', 100)), [
          'ses_ref_4',
          'ses_ref_3',
          'ses_ref_2',
          'ses_ref_1',
          'ses_ref_0',
        ]);
        assert.deepEqual(ids(await b.listSessionsByReference('user-8812', 2)), ['ses_ref_4', 'ses_ref_3']);
        assert.deepEqual(await b.listSessionsByReference('user-9999', 100), [other]);
        assert.deepEqual(await b.listSessionsByReference('user-unknown', 100), []);

        const submitted = session('ses_ref_4', { createdAt: iso(START + 240_000), version: 2, status: 'submitted' });
        assert.equal(await b.replaceSession(submitted, 1), true);
        const listed = await a.listSessionsByReference('user-8812', 100);
        assert.equal(listed.length, 5, 'a replaced session is listed once');
        assert.deepEqual(listed[0], submitted, 'as it is now');
      });
    });

    test('sessions by status: oldest expiry first, at most the limit, only those expiring before expiresBefore; a change of status moves them', async () => {
      await withBackend(async (a, { peer }) => {
        const b = await peer();
        const minute = 60_000;
        for (const k of [3, 1, 4, 2])
          await a.createSession(session(`ses_open_${k}`, { expiresAt: iso(START + k * minute) }), secretsOf(`ses_open_${k}`));
        await a.createSession(session('ses_sub', { status: 'submitted', expiresAt: iso(START) }), secretsOf('ses_sub'));
        assert.deepEqual(ids(await b.listSessionsByStatus('open', { limit: 100 })), [
          'ses_open_1',
          'ses_open_2',
          'ses_open_3',
          'ses_open_4',
        ]);
        assert.deepEqual(ids(await b.listSessionsByStatus('open', { limit: 2 })), ['ses_open_1', 'ses_open_2']);
        assert.deepEqual(
          ids(await b.listSessionsByStatus('open', { limit: 100, expiresBefore: new Date(START + 3 * minute) })),
          ['ses_open_1', 'ses_open_2'],
          'one expiring at the cutoff is not before it',
        );
        assert.deepEqual(ids(await b.listSessionsByStatus('open', { limit: 1, expiresBefore: new Date(START + 3 * minute) })), [
          'ses_open_1',
        ]);
        assert.deepEqual(await b.listSessionsByStatus('open', { limit: 100, expiresBefore: new Date(START) }), []);
        assert.deepEqual(ids(await b.listSessionsByStatus('submitted', { limit: 100 })), ['ses_sub']);
        assert.deepEqual(await b.listSessionsByStatus('expired', { limit: 100 }), []);

        const expired = session('ses_open_1', {
          expiresAt: iso(START + minute),
          version: 2,
          status: 'expired',
          endedAt: iso(START + minute),
        });
        assert.equal(await b.replaceSession(expired, 1), true);
        assert.deepEqual(ids(await a.listSessionsByStatus('open', { limit: 100 })), ['ses_open_2', 'ses_open_3', 'ses_open_4']);
        assert.deepEqual(await a.listSessionsByStatus('expired', { limit: 100 }), [expired]);
      });
    });

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

    test('onboardings: the session id round-trips, and access keys added by replays open it beside the first', async () => {
      await withBackend(async (a, { peer }) => {
        const b = await peer();
        const created = await create(a, 'tok-ses', iso(START), { sessionId: 'ses_1' });
        assert.equal(created.sessionId, 'ses_1');
        assert.equal((await b.get('tok-ses'))!.sessionId, 'ses_1');
        assert.equal((await b.get('tok-ses'))!.moreAccessKeyHashes, undefined, 'none until one is added');

        assert.equal(await b.addAccessKey('tok-ses', sha('key-2')), true);
        assert.equal(await a.addAccessKey('tok-ses', sha('key-3')), true);
        assert.equal(await a.addAccessKey('tok-unknown', sha('key-x')), false);
        assert.equal(await b.get('tok-unknown'), null, 'no onboarding made for an unknown token');
        const read = (await b.get('tok-ses'))!;
        assert.equal(read.accessKeyHash, 'hash-tok-ses', 'the first key stays');
        assert.deepEqual([...read.moreAccessKeyHashes!].sort(), [sha('key-2'), sha('key-3')].sort());
        read.moreAccessKeyHashes!.push('edited');
        assert.deepEqual((await a.get('tok-ses'))!.moreAccessKeyHashes!.length, 2, 'editing what was read changes nothing stored');

        const approved = (await b.applyStatus('tok-ses', { status: 'APPROVED', source: 'webhook' }))!;
        assert.equal(approved.record.sessionId, 'ses_1', 'a status change keeps the session id');
        assert.equal(approved.record.moreAccessKeyHashes?.length, 2, 'and the added keys');
        const after = (await a.get('tok-ses'))!;
        assert.equal(after.sessionId, 'ses_1');
        assert.equal(after.moreAccessKeyHashes?.length, 2);

        // Expiry takes the added keys with the onboarding: a token seen again starts without them.
        const far = new Date(START + 400 * 24 * 3600_000);
        assert.ok((await a.expire({ finishedBefore: far, createdBefore: new Date(0) })) >= 1);
        const again = await create(a, 'tok-ses', iso(START));
        assert.equal(again.sessionId, undefined);
        assert.equal((await b.get('tok-ses'))!.moreAccessKeyHashes, undefined);
        assert.equal((await b.get('tok-ses'))!.sessionId, undefined);
      });
    });

    test('outbox: inserts are idempotent by id across instances; due entries come in queue order, pending and due only', async () => {
      await withBackend(async (a, { peer }) => {
        const b = await peer();
        assert.equal(await a.enqueueNotification(entry('evt_3')), true);
        assert.equal(
          await b.enqueueNotification(entry('evt_3', { body: '{"other":true}', orderKey: 'ses_2', createdAt: iso(START - 1) })),
          false,
          'an id already queued is not queued again',
        );
        assert.deepEqual(await b.getNotification('evt_3'), entry('evt_3'), 'and the first stays as it was');
        // Same createdAt, ids not in sorted order: ties go by insertion.
        await b.enqueueNotification(entry('evt_1'));
        await a.enqueueNotification(entry('evt_2'));
        await a.enqueueNotification(entry('evt_later', { createdAt: iso(START + 1_000), nextAttemptMs: START + 60_000 }));
        await b.enqueueNotification(entry('evt_0', { createdAt: iso(START + 2_000) }));
        await a.enqueueNotification(entry('evt_settled', { createdAt: iso(START + 3_000) }));
        assert.equal(
          await a.updateNotification('evt_settled', {
            state: 'delivered',
            attempts: 1,
            nextAttemptMs: START,
            lastAttemptAt: iso(START),
            deliveredAt: iso(START),
          }),
          true,
        );

        assert.deepEqual(ids(await b.dueNotifications(START, 100)), ['evt_3', 'evt_1', 'evt_2', 'evt_0']);
        assert.deepEqual(ids(await b.dueNotifications(START, 2)), ['evt_3', 'evt_1']);
        assert.deepEqual(await a.dueNotifications(START - 1, 100), [], 'nothing before its time');
        assert.deepEqual(
          ids(await a.dueNotifications(START + 60_000, 100)),
          ['evt_3', 'evt_1', 'evt_2', 'evt_later', 'evt_0'],
          'due from its nextAttemptMs on',
        );
        assert.deepEqual((await a.dueNotifications(START, 1))[0], entry('evt_3'), 'entries come back as queued');
        assert.equal(await a.getNotification('evt_unknown'), null);

        const race = await Promise.all(
          Array.from({ length: 6 }, (_, i) => (i % 2 ? b : a).enqueueNotification(entry('evt_race', { orderKey: `writer-${i}` }))),
        );
        assert.equal(race.filter(Boolean).length, 1, 'queued once when instances race');
        const winner = race.findIndex(Boolean);
        assert.equal((await b.getNotification('evt_race'))!.orderKey, `writer-${winner}`);

        const read = (await a.getNotification('evt_3'))!;
        read.attempts = 9;
        assert.deepEqual(await a.getNotification('evt_3'), entry('evt_3'), 'callers get copies');
      });
    });

    test('outbox: tries are recorded; listing by state, newest first, and failing ones (pending with attempts)', async () => {
      await withBackend(async (a, { peer }) => {
        const b = await peer();
        for (let i = 1; i <= 5; i++) await a.enqueueNotification(entry(`n${i}`, { createdAt: iso(START + i * 1_000) }));
        const updates = {
          n1: { state: 'failed', attempts: 20, nextAttemptMs: START, lastAttemptAt: iso(START + 90_000), lastError: 'HTTP 500' },
          n2: { state: 'pending', attempts: 1, nextAttemptMs: START + 1_000, lastAttemptAt: iso(START), lastError: 'timeout' },
          n3: { state: 'delivered', attempts: 2, nextAttemptMs: START, lastAttemptAt: iso(START + 2_000), deliveredAt: iso(START + 2_000) },
          n4: {
            state: 'pending',
            attempts: 2,
            nextAttemptMs: START + 3600_000,
            lastAttemptAt: iso(START),
            lastError: 'connection refused',
          },
        } as const;
        for (const [id, u] of Object.entries(updates))
          assert.equal(await (id === 'n2' ? b : a).updateNotification(id, u), true, `${id} updated`);
        assert.equal(await b.updateNotification('n-unknown', updates.n1), false, 'an unknown id is not updated');
        assert.equal(await a.getNotification('n-unknown'), null, 'nor created');

        assert.deepEqual(await b.getNotification('n2'), { ...entry('n2', { createdAt: iso(START + 2_000) }), ...updates.n2 });
        assert.deepEqual(ids(await b.listNotifications({ state: 'pending', limit: 100 })), ['n5', 'n4', 'n2']);
        assert.deepEqual(ids(await b.listNotifications({ state: 'pending', failingOnly: true, limit: 100 })), ['n4', 'n2']);
        assert.deepEqual(ids(await b.listNotifications({ state: 'pending', failingOnly: true, limit: 1 })), ['n4']);
        assert.deepEqual(await b.listNotifications({ state: 'failed', limit: 100 }), [
          { ...entry('n1', { createdAt: iso(START + 1_000) }), ...updates.n1 },
        ]);
        assert.deepEqual(ids(await b.listNotifications({ state: 'delivered', limit: 100 })), ['n3']);
        assert.deepEqual(
          ids(await a.dueNotifications(START + 1_000, 100)),
          ['n2', 'n5'],
          'a retry waits for its nextAttemptMs; settled entries are never due',
        );

        // An update sets every field of the try: what it leaves out is cleared, so a delivery carries no stale error.
        const delivered = {
          state: 'delivered',
          attempts: 2,
          nextAttemptMs: START + 1_000,
          lastAttemptAt: iso(START + 5_000),
          deliveredAt: iso(START + 5_000),
        } as const;
        assert.equal(await a.updateNotification('n2', delivered), true);
        assert.deepEqual(await b.getNotification('n2'), { ...entry('n2', { createdAt: iso(START + 2_000) }), ...delivered });
        assert.deepEqual(ids(await b.listNotifications({ state: 'delivered', limit: 100 })), ['n3', 'n2']);
        assert.deepEqual(ids(await b.listNotifications({ state: 'pending', failingOnly: true, limit: 100 })), ['n4']);
      });
    });

    test('device secrets: of their own kind, found by every instance, deleted with their session', async () => {
      await withBackend(async (a, { peer }) => {
        const b = await peer();
        await a.createSession(session('ses_dev'), secretsOf('ses_dev'));
        assert.equal(await a.addSessionSecret('ses_dev', 'device', sha('device-1')), true);
        assert.equal((await b.findSessionBySecret('device', sha('device-1')))?.id, 'ses_dev');
        assert.equal(await b.findSessionBySecret('client', sha('device-1')), null, 'a device secret is no client secret');
        assert.equal(await b.findSessionBySecret('device', secretsOf('ses_dev').client), null, 'nor the other way round');
      });
    });

    test('hand-off keys: point at their session for every instance; a live key of another session is refused, a lapsed one taken over', async () => {
      await withBackend(async (a, { peer, clock }) => {
        const b = await peer();
        for (const id of ['ses_h1', 'ses_h2']) await a.createSession(session(id), secretsOf(id));
        const now = clock.now();
        assert.equal(await a.putHandoffKey(sha('code-1'), 'ses_h1', now + 60_000), true);
        assert.equal(await b.findHandoffKey(sha('code-1')), 'ses_h1');
        assert.equal(await b.findHandoffKey(sha('never issued')), null);
        assert.equal(await b.findHandoffKey('code-1'), null, 'found by the hash, not by what was hashed');
        assert.equal(await b.putHandoffKey(sha('code-1'), 'ses_h2', now + 60_000), false, 'no two live keys alike');
        assert.equal(await a.findHandoffKey(sha('code-1')), 'ses_h1', 'and the first keeps it');
        assert.equal(await b.putHandoffKey(sha('code-1'), 'ses_h1', now + 120_000), true, 'its own session may renew it');
        assert.equal(await a.putHandoffKey(sha('code-x'), 'ses_unknown', now + 60_000), false, 'an unknown session gets none');
        assert.equal(await a.findHandoffKey(sha('code-x')), null);

        // Lapsed: still found (a late claim is told the link expired), until another session takes the hash.
        const short = serverClock ? 300 : 1_000;
        assert.equal(await a.putHandoffKey(sha('code-2'), 'ses_h1', clock.now() + short), true);
        await clock.advance(short + (serverClock ? 200 : 1));
        assert.equal(await b.findHandoffKey(sha('code-2')), 'ses_h1');
        assert.equal(await b.putHandoffKey(sha('code-2'), 'ses_h2', clock.now() + 60_000), true);
        assert.equal(await a.findHandoffKey(sha('code-2')), 'ses_h2');

        // Retention: keys go with their session.
        await a.replaceSession(
          { ...(await a.getSession('ses_h1'))!, version: 2, status: 'expired', endedAt: iso(START - 2 * 86_400_000) },
          1,
        );
        await b.purgeBackendState({
          sessionsEndedBefore: new Date(START - 86_400_000),
          sessionsCreatedBefore: new Date(START - 7 * 86_400_000),
          outboxBefore: new Date(0),
        });
        assert.equal(await a.findHandoffKey(sha('code-1')), null, 'deleted with its session');
        assert.equal(await a.findHandoffKey(sha('code-2')), 'ses_h2', "another session's stays");
      });
    });

    test('session changes are told to the listeners of that session on every instance, until they unsubscribe', async () => {
      await withBackend(async (a, { peer }) => {
        const b = await peer();
        for (const id of ['ses_w', 'ses_other']) await a.createSession(session(id), secretsOf(id));
        const heardByA: string[] = [];
        const heardByB: string[] = [];
        const offA = a.subscribeSession('ses_w', (id) => heardByA.push(id));
        const offB = b.subscribeSession('ses_w', (id) => heardByB.push(id));
        assert.equal(await a.replaceSession(session('ses_w', { version: 2, status: 'submitted' }), 1), true);
        await eventually(() => heardByA.length > 0 && heardByB.length > 0);
        assert.deepEqual([...new Set([...heardByA, ...heardByB])], ['ses_w']);
        assert.equal(await b.replaceSession(session('ses_w', { version: 2, status: 'expired' }), 1), false);
        assert.equal(await b.replaceSession(session('ses_other', { version: 2 }), 1), true);
        offA();
        offB();
        const [countA, countB] = [heardByA.length, heardByB.length];
        const marker: string[] = [];
        b.subscribeSession('ses_w', (id) => marker.push(id));
        assert.equal(await a.replaceSession(session('ses_w', { version: 3, status: 'completed' }), 2), true);
        await eventually(() => marker.length > 0);
        assert.deepEqual(
          [heardByA.length, heardByB.length],
          [countA, countB],
          'nothing after unsubscribing, nothing for another session or a lost write',
        );
      });
    });

    test('the hand-off over two instances: one claim wins, a new link replaces the old, a lapsed one is expired, reclaim revokes the device', async () => {
      await withBackend(async (a, { peer, clock }) => {
        const b = await peer();
        let offset = 0;
        const timers = {
          now: () => clock.now() + offset,
          setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
          clearTimeout: (h: unknown) => clearTimeout(h as never),
        };
        const logger = createJsonLogger({ sink: () => {} });
        const [sa, sb] = [a, b].map((store) => new SessionService({ store, timers, logger, publicUrl: 'https://kyc.example' }));
        const [ha, hb] = [sa!, sb!].map((sessions) => new HandoffService({ sessions, logger }));
        const { response } = await sa!.open(
          { reference: 'user-h', documentTypes: [], locale: 'pt-BR', expiresInS: 3600, metadata: {} },
          { fingerprint: 'f', origin: 'https://kyc.example' },
        );
        const origin = (await sb!.authenticatePage(response.clientSecret))!;
        assert.equal(origin.kind, 'client');
        assert.equal((await sa!.authenticatePage(new URL(response.url).pathname.slice('/capture/'.length)))?.kind, 'capture');

        const old = await ha!.offer(origin, 'https://x');
        const o = await hb!.offer(origin, 'https://x');
        await assert.rejects(ha!.claim({ code: old.code }), { code: 'handoff_invalid' }, 'the replaced link stops working');
        const tries = await Promise.allSettled(
          [ha!, hb!, ha!, hb!].map((h, i) => h.claim(i % 2 ? { token: o.url.split('/h/')[1]! } : { code: o.code })),
        );
        const won = tries.filter((t) => t.status === 'fulfilled');
        assert.equal(won.length, 1, 'one claim wins across instances');
        for (const t of tries) if (t.status === 'rejected') assert.equal((t.reason as { code: string }).code, 'handoff_used');
        const device = (await sa!.authenticatePage((won[0] as PromiseFulfilledResult<{ clientSecret: string }>).value.clientSecret))!;
        assert.equal(device.kind, 'device');
        assert.ok(holds(device.session, device) && !holds(device.session, origin));

        await hb!.reclaim(origin);
        const after = (await a.getSession(origin.session.id))!;
        assert.ok(holds(after, origin) && !holds(after, device), 'the origin holds it again, the device nothing');

        const lapsing = await ha!.offer({ ...origin, session: after }, 'https://x');
        offset += 600_000;
        await assert.rejects(hb!.claim({ token: lapsing.url.split('/h/')[1]! }), { code: 'handoff_expired' });
        const log = (await a.getSession(origin.session.id))!.events!.map((e) => e.event.type);
        assert.deepEqual(log, [
          'handoff.created',
          'handoff.created',
          'handoff.claimed',
          'handoff.reclaimed',
          'handoff.created',
          'handoff.expired',
        ]);
        assert.deepEqual(
          (await b.getSession(origin.session.id))!.events!.map((e) => e.seq),
          [1, 2, 3, 4, 5, 6],
        );
      });
    });

    test('retention: ended and old sessions (with their secrets) and settled notifications go; the rest stays', async () => {
      await withBackend(async (a, { peer }) => {
        const b = await peer();
        const day = 24 * 3600_000;
        const sessions = {
          ses_ended_old: session('ses_ended_old', {
            status: 'completed',
            createdAt: iso(START - 2 * day),
            endedAt: iso(START - day - 1_000),
          }),
          ses_expired_old: session('ses_expired_old', {
            status: 'expired',
            createdAt: iso(START - 3 * day),
            endedAt: iso(START - 2 * day),
          }),
          ses_ancient: session('ses_ancient', { status: 'submitted', createdAt: iso(START - 8 * day) }),
          ses_ended_recent: session('ses_ended_recent', {
            status: 'completed',
            createdAt: iso(START - 2 * day),
            endedAt: iso(START - 1_000),
          }),
          ses_open: session('ses_open', { createdAt: iso(START - 1_000) }),
        };
        for (const s of Object.values(sessions)) await a.createSession(s, secretsOf(s.id));
        const settled = {
          o_delivered_old: {
            state: 'delivered',
            attempts: 1,
            nextAttemptMs: 0,
            lastAttemptAt: iso(START - 2 * day),
            deliveredAt: iso(START - 2 * day),
          },
          o_delivered_recent: {
            state: 'delivered',
            attempts: 3,
            nextAttemptMs: 0,
            lastAttemptAt: iso(START - 1_000),
            deliveredAt: iso(START - 1_000),
          },
          o_failed_old: { state: 'failed', attempts: 20, nextAttemptMs: 0, lastAttemptAt: iso(START - 2 * day), lastError: 'HTTP 500' },
          o_failed_recent: { state: 'failed', attempts: 20, nextAttemptMs: 0, lastAttemptAt: iso(START - 1_000), lastError: 'timeout' },
          o_pending_old: {
            state: 'pending',
            attempts: 5,
            nextAttemptMs: START + 60_000,
            lastAttemptAt: iso(START - 2 * day),
            lastError: 'timeout',
          },
        } as const;
        for (const [id, u] of Object.entries(settled)) {
          await a.enqueueNotification(entry(id, { createdAt: iso(START - 3 * day) }));
          await a.updateNotification(id, u);
        }

        const cutoffs = {
          sessionsEndedBefore: new Date(START - day),
          sessionsCreatedBefore: new Date(START - 7 * day),
          outboxBefore: new Date(START - day),
        };
        assert.equal(await b.purgeBackendState(cutoffs), 5, 'three sessions and two notifications');
        for (const gone of ['ses_ended_old', 'ses_expired_old', 'ses_ancient']) {
          assert.equal(await a.getSession(gone), null, `${gone} deleted`);
          assert.equal(await a.findSessionBySecret('client', secretsOf(gone).client), null, `${gone}'s secrets deleted with it`);
          assert.equal(await a.findSessionBySecret('capture', secretsOf(gone).capture), null);
        }
        for (const kept of ['ses_ended_recent', 'ses_open'] as const) {
          assert.deepEqual(await a.getSession(kept), sessions[kept], `${kept} kept`);
          assert.equal((await a.findSessionBySecret('client', secretsOf(kept).client))?.id, kept);
        }
        assert.deepEqual(ids(await a.listSessionsByReference('user-8812', 100)), ['ses_open', 'ses_ended_recent']);
        assert.deepEqual(await a.listSessionsByStatus('expired', { limit: 100 }), []);
        assert.deepEqual(await a.listSessionsByStatus('submitted', { limit: 100 }), []);
        for (const gone of ['o_delivered_old', 'o_failed_old']) assert.equal(await a.getNotification(gone), null, `${gone} deleted`);
        for (const kept of ['o_delivered_recent', 'o_failed_recent', 'o_pending_old'])
          assert.ok(await a.getNotification(kept), `${kept} kept`);
        assert.deepEqual(ids(await a.listNotifications({ state: 'failed', limit: 100 })), ['o_failed_recent']);
        assert.equal(await a.purgeBackendState(cutoffs), 0, 'a second sweep finds nothing');
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
