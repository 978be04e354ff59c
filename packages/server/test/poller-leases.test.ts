/**
 * The poller on a clock the test moves: backoff up to every 10 minutes until the maximum age (a
 * manual review that takes hours still reaches the store), one poller per onboarding across
 * instances through the store's lease, takeover when an instance dies or stops, resumption after
 * a restart, and an unreachable store that stops nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { OnboardingReport, OnboardingStatus } from '@onboarding-kit/contract';
import { createJsonLogger, MemoryStore } from '@onboarding-kit/server';
import { StatusPoller, pollLeaseName, type PollTimings } from '../src/relay/poller.js';
import type { Timers } from '../src/relay/timers.js';
import { StoreUnavailableError } from '../src/store/errors.js';
import { ManualClock } from '@onboarding-kit/testing/manual-clock';

/** Timers that never fire: those of a process that was killed (its clock reading stays shared). */
const frozen = (clock: ManualClock): Timers => ({ now: clock.now, setTimeout: () => ({}), clearTimeout: () => {} });

const S = 1_000;
const MIN = 60 * S;
const H = 60 * MIN;

interface Setup {
  clock: ManualClock;
  store: MemoryStore;
  /** What the upstream report answers per token (default IN_PROCESS). */
  upstream: Map<string, OnboardingStatus>;
  /** Every report call: token, clock time, instance. */
  calls: { token: string; at: number; by: string }[];
  logs: string[];
  poller(owner: string, options?: { timers?: Timers; timings?: Partial<PollTimings>; takeOver?: boolean }): StatusPoller;
  create(token: string, createdAt?: number): Promise<void>;
}

function setup(): Setup {
  const clock = new ManualClock();
  const store = new MemoryStore({ now: clock.now });
  const upstream = new Map<string, OnboardingStatus>();
  const calls: Setup['calls'] = [];
  const logs: string[] = [];
  const logger = createJsonLogger({ sink: (l) => logs.push(l), level: 'debug' });
  return {
    clock,
    store,
    upstream,
    calls,
    logs,
    poller: (owner, options = {}) =>
      new StatusPoller({
        store,
        logger,
        owner,
        timers: options.timers ?? clock,
        random: () => 0,
        ...(options.takeOver !== undefined && { takeOver: options.takeOver }),
        ...(options.timings && { timings: options.timings }),
        report: async (token): Promise<OnboardingReport> => {
          calls.push({ token, at: clock.now(), by: owner });
          return { tokenOnboarding: token, status: upstream.get(token) ?? 'IN_PROCESS' };
        },
      }),
    async create(token, createdAt = clock.now()) {
      await store.create({
        tokenOnboarding: token,
        status: 'IN_PROCESS',
        createdAt: new Date(createdAt).toISOString(),
        accessKeyHash: 'hash',
      });
    },
  };
}

const pollsOf = (s: Setup, token: string) => s.calls.filter((c) => c.token === token);

test('backoff: every 5 s in the first minute, then doubling up to every 10 minutes, never giving up before the maximum age', async () => {
  const s = setup();
  const poller = s.poller('a');
  await s.create('t1');
  poller.track('t1');
  await s.clock.advance(3 * H);
  const times = pollsOf(s, 't1').map((c) => c.at - pollsOf(s, 't1')[0]!.at + 2 * S);
  assert.equal(times[0], 2 * S, 'first poll 2 s after creation');
  const gaps = times.slice(1).map((t, i) => t - times[i]!);
  assert.deepEqual(
    gaps.slice(0, 12),
    [5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5].map((x) => x * S),
    'fast phase: every 5 s',
  );
  // Then 10, 20, 40 ... seconds, capped at 10 minutes.
  const later = gaps.slice(12);
  assert.deepEqual(
    later.slice(0, 6),
    [10, 20, 40, 80, 160, 320].map((x) => x * S),
  );
  assert.ok(
    later.slice(6).every((g) => g === 10 * MIN),
    `capped at 10 min: ${later.slice(6).join(', ')}`,
  );
  assert.ok(times.at(-1)! > 2 * H + 50 * MIN, 'still polling after hours');

  // A manual review decided after 3 hours reaches the store at the next poll, at most 10 minutes later.
  s.upstream.set('t1', 'APPROVED');
  const decidedAt = s.clock.now();
  await s.clock.advance(10 * MIN);
  const record = await s.store.get('t1');
  assert.equal(record!.status, 'APPROVED');
  assert.equal(record!.history.at(-1)!.source, 'poll');
  assert.ok(Date.parse(record!.updatedAt) - decidedAt <= 10 * MIN);
  const count = pollsOf(s, 't1').length;
  await s.clock.advance(1 * H);
  assert.equal(pollsOf(s, 't1').length, count, 'no poll after the outcome');
  assert.equal(await s.store.acquireLease(pollLeaseName('t1'), 'someone-else', 10 * S), true, 'the lease was given up');
  await poller.close();
});

test('polling ends at the maximum age, and the onboarding is not taken over again', async () => {
  const s = setup();
  const timings = { maxDurationMs: 2 * H };
  const a = s.poller('a', { timings });
  await s.create('old');
  a.track('old');
  await s.clock.advance(2 * H + 30 * MIN);
  const last = pollsOf(s, 'old').at(-1)!;
  assert.ok(last.at - Date.parse((await s.store.get('old'))!.createdAt) <= 2 * H, 'no poll beyond the maximum age');
  assert.ok(s.logs.some((l) => l.includes('polling ended: the onboarding reached its maximum age')));
  // Another instance's scans leave it alone too.
  const b = s.poller('b', { timings });
  await s.clock.advance(5 * MIN);
  assert.equal(pollsOf(s, 'old').length, pollsOf(s, 'old').filter((c) => c.at <= last.at).length);
  await a.close();
  await b.close();
});

test('two instances on one store: one polls each onboarding; a webhook outcome stops it', async () => {
  const s = setup();
  const a = s.poller('a');
  const b = s.poller('b');
  for (const t of ['x1', 'x2', 'x3']) await s.create(t);
  a.track('x1');
  b.track('x2');
  a.track('x3');
  await s.clock.advance(2 * MIN);
  assert.ok(pollsOf(s, 'x1').length > 10);
  assert.deepEqual(new Set(pollsOf(s, 'x1').map((c) => c.by)), new Set(['a']), 'only its creator polls it, though b scans');
  assert.deepEqual(new Set(pollsOf(s, 'x2').map((c) => c.by)), new Set(['b']));
  // A webhook applied anywhere ends the polling and frees the lease.
  await s.store.applyStatus('x3', { status: 'REFUSED', source: 'webhook' });
  const count = pollsOf(s, 'x3').length;
  await s.clock.advance(5 * MIN);
  assert.equal(pollsOf(s, 'x3').length, count);
  assert.equal(a.size, 1);
  await a.close();
  await b.close();
});

test('an instance that dies: its leases lapse within the lease time and another instance takes its onboardings over', async () => {
  const s = setup();
  // Instance a's timers stop for good (SIGKILL); its leases stay in the store until they lapse.
  const a = s.poller('a', { timers: frozen(s.clock), takeOver: false });
  const b = s.poller('b');
  await s.clock.advance(1 * S);
  for (const t of ['k1', 'k2']) await s.create(t);
  a.track('k1');
  a.track('k2');
  await s.clock.advance(1);
  const diedAt = s.clock.now();
  s.upstream.set('k1', 'APPROVED');
  await s.clock.advance(60 * S);
  const firstByB = pollsOf(s, 'k1').find((c) => c.by === 'b');
  assert.ok(firstByB, 'b took k1 over');
  // Lapse (30 s) + one scan period (10 s, jittered up to 20 %) + the first poll after a takeover (2 s).
  assert.ok(firstByB.at - diedAt <= 30 * S + 12 * S + 2 * S, `took ${firstByB.at - diedAt} ms`);
  assert.equal((await s.store.get('k1'))!.status, 'APPROVED');
  assert.ok(pollsOf(s, 'k2').every((c) => c.by === 'b'));
  assert.ok(s.logs.some((l) => l.includes('polling taken over')));
  await b.close();
  void a;
});

test('close() gives the leases up: the other instance takes over at its next scan, not after the lease time', async () => {
  const s = setup();
  const a = s.poller('a');
  const b = s.poller('b');
  await s.create('g1');
  a.track('g1');
  await s.clock.advance(10 * S);
  await a.close();
  const closedAt = s.clock.now();
  await s.clock.advance(30 * S);
  const firstByB = pollsOf(s, 'g1').find((c) => c.by === 'b');
  assert.ok(firstByB);
  assert.ok(firstByB.at - closedAt <= 12 * S + 2 * S, `took ${firstByB.at - closedAt} ms`);
  assert.ok(
    pollsOf(s, 'g1')
      .filter((c) => c.at > closedAt)
      .every((c) => c.by === 'b'),
    'a polls nothing after close',
  );
  await b.close();
});

test('a restart resumes polling for every onboarding still in process (and only those)', async () => {
  const s = setup();
  await s.create('r1', s.clock.now() - 3 * H);
  await s.create('r2', s.clock.now() - 10 * S);
  await s.create('r3');
  await s.store.applyStatus('r3', { status: 'ERROR', source: 'webhook' });
  s.upstream.set('r1', 'APPROVED');
  const restarted = s.poller('restarted');
  await s.clock.advance(8 * S);
  assert.equal((await s.store.get('r1'))!.status, 'APPROVED', 'the outcome that came while it was down is found');
  assert.equal(pollsOf(s, 'r3').length, 0, 'finished onboardings are not polled');
  // r2 is in its fast phase (created 10 s before): first poll 2 s after the takeover, then every 5 s.
  await s.clock.advance(20 * S);
  const start = pollsOf(s, 'r2')[0]!.at;
  assert.deepEqual(
    pollsOf(s, 'r2').map((c) => c.at - start),
    [0, 5, 10, 15, 20, 25].map((x) => x * S),
  );
  await restarted.close();
});

test('a lease taken by someone else stops the polling here', async () => {
  const s = setup();
  const a = s.poller('a', { takeOver: false });
  await s.create('l1');
  a.track('l1');
  await s.clock.advance(3 * S);
  // Another owner holds it now (a's lease was cut, say by a long pause past its lapse).
  await s.store.releaseLease(pollLeaseName('l1'), 'a');
  assert.ok(await s.store.acquireLease(pollLeaseName('l1'), 'z', 30 * S));
  const count = pollsOf(s, 'l1').length;
  await s.clock.advance(30 * S);
  assert.ok(pollsOf(s, 'l1').length <= count + 2, 'at most the polls due before the renewal noticed');
  const after = pollsOf(s, 'l1').length;
  await s.clock.advance(2 * MIN);
  assert.equal(pollsOf(s, 'l1').length, after);
  assert.equal(a.size, 0);
  await a.close();
});

test('renewals: every lease held here is renewed in one store call per period, however many; one not renewed stops its polling', async () => {
  const s = setup();
  const batches: string[][] = [];
  let single = 0;
  const { renewLeases, renewLease } = s.store;
  Object.assign(s.store, {
    renewLeases: (names: string[], owner: string, ttlMs: number) => {
      batches.push([...names]);
      return renewLeases.call(s.store, names, owner, ttlMs);
    },
    renewLease: (name: string, owner: string, ttlMs: number) => {
      single++;
      return renewLease.call(s.store, name, owner, ttlMs);
    },
  });
  const a = s.poller('a', { takeOver: false });
  const tokens = Array.from({ length: 40 }, (_, i) => `b${i}`);
  for (const t of tokens) await s.create(t);
  for (const t of tokens) a.track(t);
  // The lease is 30 s, renewed every 10 s: six periods in a minute, one call each.
  await s.clock.advance(60 * S);
  assert.equal(batches.length, 6, `renewal calls in a minute: ${batches.length}`);
  assert.ok(
    batches.every((b) => b.length === 40 && new Set(b).size === 40),
    'each call names every lease held here',
  );
  assert.deepEqual(new Set(batches[0]), new Set(tokens.map(pollLeaseName)));
  assert.equal(single, 0, 'no lease renewed on its own');

  // One lease goes to someone else: the next call drops it, and only it.
  await s.store.releaseLease(pollLeaseName('b7'), 'a');
  assert.ok(await s.store.acquireLease(pollLeaseName('b7'), 'z', 30 * S));
  await s.clock.advance(10 * S);
  assert.equal(a.size, 39);
  assert.ok(s.logs.some((l) => l.includes('polling lease lapsed') && l.includes('b7')));
  const count = pollsOf(s, 'b7').length;
  await s.clock.advance(10 * S);
  assert.equal(batches.length, 8);
  assert.equal(batches.at(-1)!.length, 39);
  assert.ok(!batches.at(-1)!.includes(pollLeaseName('b7')));
  assert.equal(pollsOf(s, 'b7').length, count, 'no poll after the lease went');

  // Nothing held, nothing asked.
  for (const t of tokens) await s.store.applyStatus(t, { status: 'APPROVED', source: 'webhook' });
  assert.equal(a.size, 0);
  await s.clock.advance(30 * S);
  assert.equal(batches.length, 8, 'no renewal call with no lease held');
  await a.close();
});

test('an unreachable store stops nothing: polls, renewals and scans fail, are logged, and resume when it is back', async () => {
  const s = setup();
  const a = s.poller('a');
  await s.create('u1');
  a.track('u1');
  await s.clock.advance(10 * S);
  const down = async (): Promise<never> => {
    throw new StoreUnavailableError('the store is down');
  };
  const original = { get: s.store.get, renewLeases: s.store.renewLeases, listInProcess: s.store.listInProcess };
  Object.assign(s.store, { get: down, renewLeases: down, listInProcess: down });
  await s.clock.advance(60 * S);
  assert.ok(s.logs.some((l) => l.includes('poll failed; will retry')));
  assert.ok(s.logs.some((l) => l.includes('could not renew polling leases')));
  assert.ok(s.logs.some((l) => l.includes('polling scan failed')));
  Object.assign(s.store, original);
  s.upstream.set('u1', 'APPROVED');
  await s.clock.advance(60 * S);
  assert.equal((await s.store.get('u1'))!.status, 'APPROVED');
  await a.close();
});
