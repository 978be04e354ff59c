/**
 * The store's rules as pure functions, table by table: the same tables the conformance suite
 * plays against every store (test/store-conformance.ts), and the edges each rule turns on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { OutboxEntry, SessionRecord } from '../src/store/backend-state.js';
import type { OnboardingRecord } from '../src/store/store.js';
import {
  acquireLease,
  afterFailedTry,
  applyOutboxUpdate,
  applyStatusRules,
  atMost,
  claimLive,
  completeKey,
  consumeRate,
  decideClaim,
  IDEMPOTENCY_CASES,
  isDue,
  LEASE_CASES,
  leavePlace,
  listed,
  mayPointHandoffKey,
  newOnboarding,
  newestFirst,
  onboardingExpired,
  outboxChangedMs,
  outboxSettledBefore,
  pickDeliveries,
  PLACE_CASE_LIMIT,
  PLACE_CASES,
  type Place,
  queueOrder,
  RATE_CASE_LIMIT,
  RATE_CASE_WINDOW_MS,
  RATE_CASES,
  releaseFrees,
  reservationTtlMs,
  releaseLease,
  renewLease,
  reserveKey,
  retryDelay,
  scheduledWait,
  takePlace,
  secretOpens,
  sessionPurged,
  soonestExpiryFirst,
  STATUS_TRANSITIONS,
  statusMoves,
  versionMatches,
  withAccessKey,
  type HeldKey,
  type Lease,
  type RateWindow,
} from '../src/store/rules/index.js';

const START = Date.parse('2030-01-01T00:00:00.000Z');
const iso = (ms: number) => new Date(START + ms).toISOString();

const onboarding = (over: Partial<OnboardingRecord> = {}): OnboardingRecord => ({
  tokenOnboarding: 't',
  status: 'IN_PROCESS',
  createdAt: iso(0),
  updatedAt: iso(0),
  accessKeyHash: 'h',
  history: [{ status: 'IN_PROCESS', at: iso(0), source: 'creation' }],
  ...over,
});

test('status: every pair of statuses, in the table and through the rule', () => {
  assert.equal(STATUS_TRANSITIONS.length, 16);
  const moving = STATUS_TRANSITIONS.filter((t) => t.moves).map((t) => `${t.from}>${t.to}`);
  assert.deepEqual(moving, ['IN_PROCESS>APPROVED', 'IN_PROCESS>REFUSED', 'IN_PROCESS>ERROR']);
  for (const { from, to, moves } of STATUS_TRANSITIONS) {
    assert.equal(statusMoves(from, to), moves);
    const current = onboarding({ status: from });
    const out = applyStatusRules(current, { status: to, source: 'poll' }, iso(5));
    assert.equal(out.changed, moves, `${from} > ${to}`);
    assert.equal(out.touched, moves);
    assert.equal(out.record.status, moves ? to : from);
    assert.equal(out.record.history.length, moves ? 2 : 1);
    assert.equal(out.record.updatedAt, moves ? iso(5) : iso(0));
    assert.equal(out.record.finishedAt, moves ? iso(5) : undefined, 'only terminal statuses move, and each sets finishedAt');
    assert.notEqual(out.record.history, current.history, 'the input is never edited');
    assert.equal(current.history.length, 1);
  }
});

test('status: a repeat fills a missing externalId and never replaces one; a change brings its own', () => {
  const cases: Array<
    [Partial<OnboardingRecord>, { status: OnboardingRecord['status']; externalId?: string }, { touched: boolean; externalId?: string }]
  > = [
    [{ status: 'APPROVED' }, { status: 'APPROVED', externalId: 'e' }, { touched: true, externalId: 'e' }],
    [
      { status: 'APPROVED', externalId: 'x' },
      { status: 'APPROVED', externalId: 'e' },
      { touched: false, externalId: 'x' },
    ],
    [{ status: 'APPROVED' }, { status: 'REFUSED', externalId: 'e' }, { touched: false }],
    [{ status: 'IN_PROCESS' }, { status: 'IN_PROCESS', externalId: 'e' }, { touched: true, externalId: 'e' }],
    [
      { status: 'IN_PROCESS', externalId: 'x' },
      { status: 'ERROR', externalId: 'e' },
      { touched: true, externalId: 'e' },
    ],
    [{ status: 'IN_PROCESS', externalId: 'x' }, { status: 'ERROR' }, { touched: true, externalId: 'x' }],
    [{ status: 'APPROVED' }, { status: 'APPROVED' }, { touched: false }],
  ];
  for (const [current, update, expect] of cases) {
    const out = applyStatusRules(onboarding(current), { ...update, source: 'webhook' }, iso(1));
    assert.equal(out.touched, expect.touched, JSON.stringify([current, update]));
    assert.equal(out.record.externalId, expect.externalId, JSON.stringify([current, update]));
  }
});

test('onboardings: creation, added access keys and retention strictly before the cutoffs', () => {
  assert.deepEqual(newOnboarding({ tokenOnboarding: 't', status: 'IN_PROCESS', createdAt: iso(0), accessKeyHash: 'h' }), onboarding());
  const history = [{ status: 'IN_PROCESS' as const, at: iso(0), source: 'poll' as const }];
  assert.equal(
    newOnboarding({ tokenOnboarding: 't', status: 'IN_PROCESS', createdAt: iso(0), accessKeyHash: 'h', history }).history,
    history,
  );
  assert.deepEqual(withAccessKey(withAccessKey(withAccessKey(onboarding(), 'a'), 'b'), 'a').moreAccessKeyHashes, ['a', 'b']);
  const cut = { finishedBeforeMs: START + 10, createdBeforeMs: START + 5 };
  const rows: Array<[Partial<OnboardingRecord>, boolean]> = [
    [{ createdAt: iso(4) }, true],
    [{ createdAt: iso(5) }, false],
    [{ createdAt: iso(6), finishedAt: iso(9) }, true],
    [{ createdAt: iso(6), finishedAt: iso(10) }, false],
  ];
  for (const [r, gone] of rows) assert.equal(onboardingExpired(onboarding(r), cut), gone, JSON.stringify(r));
});

test('idempotency: the case table, played on the pure rules', () => {
  for (const c of IDEMPOTENCY_CASES) {
    let held: HeldKey | undefined;
    for (const step of c.steps) {
      if (step.op === 'reserve') {
        const { answer, write } = reserveKey(held, step.fingerprint, 500, START);
        assert.equal(answer.state, step.expect, c.name);
        if (answer.state === 'done') assert.equal(answer.result, c.replays, c.name);
        if (answer.state !== 'reserved') assert.equal(answer.fingerprint, 'f1', `${c.name}: the holder's fingerprint`);
        if (write) held = write;
      } else if (step.op === 'complete') {
        held = completeKey(held, step.result, 1_000, START) ?? held;
      } else if (releaseFrees(held)) {
        held = undefined;
      }
    }
  }
});

test('idempotency: a reservation lives min(ttl, pending ttl), a result its own ttl; lapsed keys are free', () => {
  assert.deepEqual(
    [reservationTtlMs({ ttlMs: 1_000, pendingTtlMs: 500 }), reservationTtlMs({ ttlMs: 300, pendingTtlMs: 500 })],
    [500, 300],
  );
  const { write } = reserveKey(undefined, 'f', 500, START);
  assert.deepEqual(write, { fingerprint: 'f', expiresAtMs: START + 500 });
  assert.equal(reserveKey(write, 'g', 1, START + 499).answer.state, 'pending');
  assert.deepEqual(reserveKey(write, 'g', 1, START + 500), {
    answer: { state: 'reserved' },
    write: { fingerprint: 'g', expiresAtMs: START + 501 },
  });
  assert.deepEqual(completeKey(write, 'r', 2_000, START + 100), { fingerprint: 'f', result: 'r', expiresAtMs: START + 2_100 });
  assert.equal(completeKey(undefined, 'r', 2_000, START), undefined);
  assert.equal(releaseFrees(undefined), false);
});

test('leases: the case table, played on the pure rules', () => {
  for (const c of LEASE_CASES) {
    let held: Lease | undefined;
    for (const step of c.steps) {
      const now = START + step.at;
      let got: boolean;
      if (step.op === 'release') {
        got = releaseLease(held, step.owner, now);
        if (got) held = undefined;
      } else {
        const next = (step.op === 'acquire' ? acquireLease : renewLease)(held, step.owner, step.ttlMs!, now);
        got = next !== null;
        if (next) held = next;
      }
      assert.equal(got, step.expect, `${c.name}: ${step.op} by ${step.owner} at ${step.at}`);
    }
  }
});

test('leases: free at the very millisecond they lapse, extended from now', () => {
  const held = { owner: 'a', expiresAtMs: START + 1_000 };
  assert.equal(acquireLease(held, 'b', 10, START + 999), null);
  assert.deepEqual(acquireLease(held, 'b', 10, START + 1_000), { owner: 'b', expiresAtMs: START + 1_010 });
  assert.deepEqual(renewLease(held, 'a', 10, START + 999), { owner: 'a', expiresAtMs: START + 1_009 });
  assert.equal(renewLease(held, 'a', 10, START + 1_000), null);
  assert.equal(releaseLease(held, 'a', START + 1_000), false);
});

test('places: the case table, played on the pure rules', () => {
  for (const c of PLACE_CASES) {
    let held: Place[] = [];
    for (const step of c.steps) {
      const now = START + step.at;
      let got: boolean;
      if (step.op === 'leave') {
        const out = leavePlace(held, step.holder, now);
        got = out.left;
        held = out.places;
      } else {
        const next = takePlace(held, step.holder, PLACE_CASE_LIMIT, step.ttlMs!, now);
        got = next !== null;
        if (next) held = next;
      }
      assert.equal(got, step.expect, `${c.name}: ${step.op} by ${step.holder} at ${step.at}`);
    }
  }
});

test('places: free at the very millisecond they lapse; a retake is extended from now', () => {
  const held = [{ holder: 'a', expiresAtMs: START + 1_000 }];
  assert.equal(takePlace(held, 'b', 1, 10, START + 999), null);
  assert.deepEqual(takePlace(held, 'b', 1, 10, START + 1_000), [{ holder: 'b', expiresAtMs: START + 1_010 }]);
  assert.deepEqual(takePlace(held, 'a', 1, 10, START + 500), [{ holder: 'a', expiresAtMs: START + 510 }]);
  assert.deepEqual(leavePlace(held, 'a', START + 1_000), { left: false, places: [] });
});

test('rate windows: the case table, and a window that restarts at its very end', () => {
  let held: RateWindow | undefined;
  for (const row of RATE_CASES) {
    const { decision, write } = consumeRate(held, RATE_CASE_LIMIT, RATE_CASE_WINDOW_MS, START + row.at);
    assert.deepEqual(decision, { allowed: row.allowed, count: row.count, retryAfterMs: row.retryAfterMs }, `at ${row.at}`);
    assert.equal(write !== undefined, row.allowed, 'only a counted request writes');
    if (write) held = write;
  }
  assert.deepEqual(consumeRate({ count: 5, resetAtMs: START }, 5, 100, START).decision, { allowed: true, count: 1, retryAfterMs: 100 });
  assert.deepEqual(consumeRate({ count: 5, resetAtMs: START + 1 }, 5, 100, START).decision, { allowed: false, count: 5, retryAfterMs: 1 });
  assert.deepEqual(consumeRate(undefined, 0, 100, START), { decision: { allowed: false, count: 0, retryAfterMs: 100 } });
});

const entry = (over: Partial<OutboxEntry> = {}): OutboxEntry => ({
  id: 'evt_1',
  type: 'session.completed',
  body: '{}',
  orderKey: 'k',
  createdAt: iso(0),
  state: 'pending',
  attempts: 0,
  nextAttemptMs: START,
  ...over,
});

test('outbox: a try sets what it decides and drops what it omits; the last change is the latest of its times', () => {
  const failed = entry({ attempts: 1, lastAttemptAt: iso(1), lastError: 'HTTP 500' });
  const delivered = applyOutboxUpdate(failed, {
    state: 'delivered',
    attempts: 2,
    nextAttemptMs: START,
    lastAttemptAt: iso(2),
    deliveredAt: iso(2),
  });
  assert.deepEqual(delivered, { ...entry(), state: 'delivered', attempts: 2, lastAttemptAt: iso(2), deliveredAt: iso(2) });
  assert.equal('lastError' in delivered, false);
  assert.deepEqual(Object.keys(applyOutboxUpdate(entry(), { ...entry(), lastError: undefined })).sort(), [
    'attempts',
    'body',
    'createdAt',
    'id',
    'nextAttemptMs',
    'orderKey',
    'state',
    'type',
  ]);
  assert.equal(outboxChangedMs(entry()), START);
  assert.equal(outboxChangedMs(failed), START + 1);
  assert.equal(outboxChangedMs(delivered), START + 2);
});

test('outbox: which entries are due, in what order, listed, and purged', () => {
  assert.deepEqual([isDue(entry(), START), isDue(entry(), START - 1), isDue(entry({ state: 'failed' }), START)], [true, false, false]);
  const queued = [
    { entry: entry({ id: 'c', createdAt: iso(1) }), seq: 1 },
    { entry: entry({ id: 'b', createdAt: iso(0) }), seq: 3 },
    { entry: entry({ id: 'a', createdAt: iso(0) }), seq: 2 },
  ];
  assert.deepEqual(
    [...queued].sort(queueOrder).map((q) => q.entry.id),
    ['a', 'b', 'c'],
  );
  const rows: Array<[Partial<OutboxEntry>, 'pending' | 'failed', boolean, boolean]> = [
    [{ state: 'pending', attempts: 0 }, 'pending', false, true],
    [{ state: 'pending', attempts: 0 }, 'pending', true, false],
    [{ state: 'pending', attempts: 1 }, 'pending', true, true],
    [{ state: 'failed', attempts: 3 }, 'pending', false, false],
  ];
  for (const [e, state, failingOnly, shown] of rows)
    assert.equal(listed(entry(e), state, failingOnly), shown, JSON.stringify([e, state, failingOnly]));
  assert.equal(outboxSettledBefore(entry({ state: 'delivered', deliveredAt: iso(4) }), START + 5), true);
  assert.equal(outboxSettledBefore(entry({ state: 'delivered', deliveredAt: iso(5) }), START + 5), false);
  assert.equal(outboxSettledBefore(entry({ state: 'pending' }), START + 5), false);
});

test('outbox: the retry schedule doubles from the first delay up to the cap, and gives up once the waits reach the limit', () => {
  const s = { firstDelayMs: 1_000, maxDelayMs: 5_000, giveUpAfterMs: 10_000 };
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5, 60].map((n) => retryDelay(n, s)),
    [1_000, 1_000, 2_000, 4_000, 5_000, 5_000, 5_000],
  );
  assert.deepEqual(
    [0, 1, 2, 3, 4].map((n) => scheduledWait(n, s)),
    [0, 1_000, 3_000, 7_000, 12_000],
  );
  const tries = [1, 2, 3, 4, 5].map((n) => afterFailedTry(n, START, s));
  assert.deepEqual(tries, [
    { state: 'pending', nextAttemptMs: START + 1_000 },
    { state: 'pending', nextAttemptMs: START + 2_000 },
    { state: 'pending', nextAttemptMs: START + 4_000 },
    { state: 'pending', nextAttemptMs: START + 5_000 },
    { state: 'failed', nextAttemptMs: START },
  ]);
  assert.equal(retryDelay(1_000, { firstDelayMs: 1, maxDelayMs: Number.MAX_SAFE_INTEGER }), 2 ** 40, 'the exponent stops at 40');
});

test('outbox: a scan starts the first entry of each order key that is due and not in flight, within its room', () => {
  const pending = [
    entry({ id: 'a1', orderKey: 'a' }),
    entry({ id: 'a2', orderKey: 'a' }),
    entry({ id: 'b1', orderKey: 'b', nextAttemptMs: START + 300 }),
    entry({ id: 'b2', orderKey: 'b' }),
    entry({ id: 'c1', orderKey: 'c' }),
    entry({ id: 'd1', orderKey: 'd' }),
    entry({ id: 'e1', orderKey: 'e', nextAttemptMs: START + 200 }),
  ];
  const picked = pickDeliveries(pending, START, { inFlight: (id) => id === 'c1', room: 1, nextLookMs: 1_000 });
  assert.deepEqual(picked, { start: [pending[0]], nextAtMs: START + 200 });
  assert.deepEqual(
    pickDeliveries(pending, START, { inFlight: () => false, room: 5, nextLookMs: 100 }).start.map((e) => e.id),
    ['a1', 'c1', 'd1'],
  );
  assert.equal(pickDeliveries([], START, { inFlight: () => false, room: 5, nextLookMs: 100 }).nextAtMs, START + 100);
});

const session = (over: Partial<SessionRecord> = {}): SessionRecord => ({
  id: 's',
  version: 1,
  reference: 'r',
  status: 'open',
  createdAt: iso(0),
  expiresAt: iso(100),
  documentTypes: [],
  locale: 'pt-BR',
  metadata: {},
  ...over,
});

test('sessions: compare-and-set, secrets, retention, list orders and hand-off keys', () => {
  assert.deepEqual(
    [versionMatches(session(), 1), versionMatches(session(), 2), versionMatches(null, 1), versionMatches(undefined, 1)],
    [true, false, false, false],
  );
  assert.equal(secretOpens({ kind: 'client', sessionId: 's' }, 'client'), 's');
  assert.equal(secretOpens({ kind: 'client', sessionId: 's' }, 'device'), null);
  assert.equal(secretOpens(undefined, 'client'), null);
  const cut = { sessionsEndedBeforeMs: START + 10, sessionsCreatedBeforeMs: START + 5, outboxBeforeMs: 0 };
  const rows: Array<[Partial<SessionRecord>, boolean]> = [
    [{ createdAt: iso(4) }, true],
    [{ createdAt: iso(5) }, false],
    [{ createdAt: iso(6), endedAt: iso(9) }, true],
    [{ createdAt: iso(6), endedAt: iso(10) }, false],
  ];
  for (const [s, gone] of rows) assert.equal(sessionPurged(session(s), cut), gone, JSON.stringify(s));
  const listed3 = [
    { s: session({ id: 'x', createdAt: iso(1), expiresAt: iso(50) }), seq: 1 },
    { s: session({ id: 'y', createdAt: iso(1), expiresAt: iso(50) }), seq: 2 },
    { s: session({ id: 'z', createdAt: iso(0), expiresAt: iso(40) }), seq: 3 },
  ];
  assert.deepEqual(
    [...listed3].sort(newestFirst).map((x) => x.s.id),
    ['y', 'x', 'z'],
  );
  assert.deepEqual(
    [...listed3].sort(soonestExpiryFirst).map((x) => x.s.id),
    ['z', 'x', 'y'],
  );
  assert.deepEqual([atMost(-1), atMost(0), atMost(3)], [0, 0, 3]);
  const key = { sessionId: 's', liveUntilMs: START + 10 };
  assert.deepEqual(
    [
      mayPointHandoffKey(undefined, 'o', START),
      mayPointHandoffKey(key, 's', START),
      mayPointHandoffKey(key, 'o', START + 9),
      mayPointHandoffKey(key, 'o', START + 10),
    ],
    [true, true, false, true],
  );
});

test('claims: one onboarding per session, replays by key and body, a live claim blocks until its timeout', () => {
  const claim = { key: 'k', fingerprint: 'f', at: iso(0) };
  const rows: Array<
    [string, Partial<SessionRecord>, { idempotencyKey?: string; fingerprint: string }, SessionRecord['status'], number, unknown]
  > = [
    ['free', {}, { fingerprint: 'f' }, 'open', 0, { kind: 'claim' }],
    ['expired', {}, { fingerprint: 'f' }, 'expired', 0, { kind: 'refused', reason: 'session_expired' }],
    ['submitted', {}, { fingerprint: 'f' }, 'submitted', 0, { kind: 'refused', reason: 'session_used' }],
    [
      'replay',
      { claim, tokenOnboarding: 'tok' },
      { idempotencyKey: 'k', fingerprint: 'f' },
      'submitted',
      0,
      { kind: 'replay', tokenOnboarding: 'tok' },
    ],
    [
      'replay, other body',
      { claim, tokenOnboarding: 'tok' },
      { idempotencyKey: 'k', fingerprint: 'g' },
      'submitted',
      0,
      { kind: 'refused', reason: 'idempotency_conflict' },
    ],
    [
      'used, other key',
      { claim, tokenOnboarding: 'tok' },
      { idempotencyKey: 'j', fingerprint: 'f' },
      'submitted',
      0,
      { kind: 'refused', reason: 'session_used' },
    ],
    ['used, no key', { claim, tokenOnboarding: 'tok' }, { fingerprint: 'f' }, 'submitted', 0, { kind: 'refused', reason: 'session_used' }],
    [
      'in progress',
      { claim },
      { idempotencyKey: 'k', fingerprint: 'f' },
      'open',
      99,
      { kind: 'refused', reason: 'idempotency_in_progress' },
    ],
    [
      'in progress, other body',
      { claim },
      { idempotencyKey: 'k', fingerprint: 'g' },
      'open',
      99,
      { kind: 'refused', reason: 'idempotency_conflict' },
    ],
    ['claimed by another', { claim }, { idempotencyKey: 'j', fingerprint: 'f' }, 'open', 99, { kind: 'refused', reason: 'session_used' }],
    ['lapsed claim', { claim }, { idempotencyKey: 'j', fingerprint: 'f' }, 'open', 100, { kind: 'claim' }],
  ];
  for (const [name, s, request, status, at, expect] of rows)
    assert.deepEqual(decideClaim(session(s), request, status, START + at, 100), expect, name);
  assert.deepEqual(
    [claimLive(session(), START, 100), claimLive(session({ claim }), START + 99, 100), claimLive(session({ claim }), START + 100, 100)],
    [false, true, false],
  );
});
