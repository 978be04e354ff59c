/**
 * The lifecycle's rules as pure functions (which sessions a cancellation takes, what a redaction
 * keeps, the list's query and cursor), and a redaction holding when the outcome lands after it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../src/logger.js';
import { realTimers } from '../src/relay/timers.js';
import { LifecycleService } from '../src/sessions/lifecycle-service.js';
import { decideCancel } from '../src/sessions/lifecycle-rules.js';
import { decodeCursor, encodeCursor, parseListQuery } from '../src/sessions/list-rules.js';
import { SessionService } from '../src/sessions/session-service.js';
import { withStatusHook } from '../src/sessions/status-hook.js';
import type { SessionRecord } from '../src/store/backend-state.js';
import { MemoryStore } from '../src/store/index.js';
import { REVOKED_KEY_HASH, redactedEventBody, redactedOnboarding, redactedSession } from '../src/store/rules/redaction.js';

const AT = '2030-01-01T00:00:00.000Z';
const NOW = Date.parse(AT);
const ID = `ses_${'a'.repeat(32)}`;
const record = (over: Partial<SessionRecord> = {}): SessionRecord => ({
  id: ID,
  version: 1,
  reference: 'ref-1',
  status: 'open',
  createdAt: AT,
  expiresAt: new Date(NOW + 60_000).toISOString(),
  documentTypes: ['CNH'],
  locale: 'pt-BR',
  metadata: {},
  ...over,
});

test('cancel: only an open session nobody is sending from; a cancelled one again is no change; the rest are refused', () => {
  assert.deepEqual(decideCancel(record(), 'open', NOW, 60_000), { kind: 'cancel' });
  assert.deepEqual(decideCancel(record(), 'cancelled', NOW, 60_000), { kind: 'already' });
  for (const status of ['submitted', 'completed', 'expired'] as const)
    assert.deepEqual(decideCancel(record(), status, NOW, 60_000), { kind: 'refused', reason: 'used' }, status);
  assert.deepEqual(decideCancel(record({ tokenOnboarding: 't' }), 'open', NOW, 60_000), { kind: 'refused', reason: 'used' });
  const claimed = record({ claim: { key: 'k', at: AT } });
  assert.deepEqual(decideCancel(claimed, 'open', NOW + 1_000, 60_000), { kind: 'refused', reason: 'creating' });
  assert.deepEqual(decideCancel(claimed, 'open', NOW + 61_000, 60_000), { kind: 'cancel' }, 'a lapsed claim holds nothing');
});

test('redaction keeps what is listed and nothing else, a later field included; the first redaction time stays', () => {
  const full = record({
    status: 'completed',
    taxId: { kind: 'cpf', value: '52998224725' },
    name: 'Maria',
    metadata: { email: 'm@example.com' },
    returnUrl: 'https://app.example/?who=m',
    tokenOnboarding: 'tok',
    outcome: { status: 'APPROVED', externalId: 'ext', at: AT },
    endedAt: AT,
    keptAnyway: { selfie: 'blurry' },
    handoff: { holderHash: 'h' },
    exchangedCaptures: ['c'],
    events: [{ seq: 1, at: AT, event: { type: 'session.completed', tokenOnboarding: 'tok', status: 'APPROVED', externalId: 'ext' } }],
    eventSeq: 1,
    ...({ futureField: 'personal' } as object),
  });
  const skeleton = redactedSession(full, AT);
  assert.deepEqual(skeleton, {
    id: ID,
    version: 1,
    reference: 'ref-1',
    status: 'completed',
    createdAt: AT,
    expiresAt: full.expiresAt,
    documentTypes: ['CNH'],
    locale: 'pt-BR',
    metadata: {},
    tokenOnboarding: 'tok',
    outcome: { status: 'APPROVED', at: AT },
    endedAt: AT,
    events: [{ seq: 1, at: AT, event: { type: 'session.completed', tokenOnboarding: 'tok', status: 'APPROVED' } }],
    eventSeq: 1,
    redactedAt: AT,
  });
  assert.equal(redactedSession(skeleton, '2031-01-01T00:00:00.000Z').redactedAt, AT);
  const onboarding = redactedOnboarding({
    tokenOnboarding: 'tok',
    status: 'APPROVED',
    createdAt: AT,
    updatedAt: AT,
    externalId: 'ext',
    accessKeyHash: 'a'.repeat(64),
    moreAccessKeyHashes: ['b'.repeat(64)],
    history: [{ status: 'APPROVED', at: AT, source: 'poll' }],
    finishedAt: AT,
    sessionId: ID,
    keptAnyway: { selfie: 'blurry' },
  });
  assert.deepEqual(onboarding, {
    tokenOnboarding: 'tok',
    status: 'APPROVED',
    createdAt: AT,
    updatedAt: AT,
    accessKeyHash: REVOKED_KEY_HASH,
    history: [{ status: 'APPROVED', at: AT, source: 'poll' }],
    finishedAt: AT,
    sessionId: ID,
  });
  const body = JSON.stringify({
    id: 'evt_1',
    type: 'session.completed',
    createdAt: AT,
    environment: 'test',
    extra: 'x',
    data: {
      id: ID,
      supportCode: 'NANA-NANA',
      reference: 'r',
      status: 'completed',
      createdAt: AT,
      expiresAt: AT,
      metadata: { email: 'm' },
      returnUrl: 'u',
    },
  });
  assert.deepEqual(JSON.parse(redactedEventBody({ id: 'evt_1', type: 'session.completed', createdAt: AT, body }, AT)), {
    id: 'evt_1',
    type: 'session.completed',
    createdAt: AT,
    environment: 'test',
    data: {
      id: ID,
      supportCode: 'NANA-NANA',
      reference: 'r',
      status: 'completed',
      createdAt: AT,
      expiresAt: AT,
      metadata: {},
      redactedAt: AT,
    },
  });
  assert.deepEqual(JSON.parse(redactedEventBody({ id: 'evt_2', type: 'session.expired', createdAt: AT, body: 'not json' }, AT)), {
    id: 'evt_2',
    type: 'session.expired',
    createdAt: AT,
    data: null,
  });
});

test('list query: defaults, bounds and a cursor that round-trips; anything else names its parameter', () => {
  assert.deepEqual(parseListQuery({}), { ok: true, value: { limit: 20, query: { limit: 21 } } });
  const cursor = encodeCursor({ createdMs: NOW, id: ID });
  assert.deepEqual(decodeCursor(cursor), { createdMs: NOW, id: ID });
  assert.deepEqual(
    parseListQuery({ reference: 'r', status: 'cancelled', createdAfter: '2030-01-01', createdBefore: AT, limit: '100', cursor }),
    {
      ok: true,
      value: {
        limit: 100,
        query: {
          reference: 'r',
          status: 'cancelled',
          createdAfterMs: NOW,
          createdBeforeMs: NOW,
          after: { createdMs: NOW, id: ID },
          limit: 101,
        },
      },
    },
  );
  for (const [params, field] of [
    [{ limit: '0' }, 'limit'],
    [{ limit: '1e2' }, 'limit'],
    [{ limit: '-1' }, 'limit'],
    [{ status: 'OPEN' }, 'status'],
    [{ createdAfter: '01/02/2030' }, 'createdAfter'],
    [{ createdBefore: '2030-02-30T99:00:00Z' }, 'createdBefore'],
    [{ cursor: `${cursor}=` }, 'cursor'],
    [{ cursor: cursor.slice(0, -2) }, 'cursor'],
    [{ cursor: Buffer.from(`c2:${NOW}:${ID}`).toString('base64url') }, 'cursor'],
    [{ cursor: Buffer.from(`c1:${NOW}:ses_x`).toString('base64url') }, 'cursor'],
    [{ reference: 'x'.repeat(129) }, 'reference'],
  ] as const) {
    const parsed = parseListQuery(params);
    assert.equal(parsed.ok, false, JSON.stringify(params));
    if (!parsed.ok) assert.deepEqual([parsed.error.code, parsed.error.field], ['invalid_field', field], JSON.stringify(params));
  }
});

test('an outcome that lands after the redaction loses its externalId as it lands: in the session, its view and the onboarding', async () => {
  const store = new MemoryStore();
  const sessions = new SessionService({ store, timers: realTimers, logger: silentLogger });
  const lifecycle = new LifecycleService({ sessions, logger: silentLogger });
  const followed = withStatusHook(store, (r) => sessions.onboardingChanged(r), silentLogger);
  const now = new Date().toISOString();
  await store.createSession(
    record({
      createdAt: now,
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
      status: 'submitted',
      tokenOnboarding: 'tok-late',
      metadata: { email: 'm@example.com' },
    }),
    { client: 'c'.repeat(64), capture: 'd'.repeat(64) },
  );
  await store.create({ tokenOnboarding: 'tok-late', status: 'IN_PROCESS', createdAt: now, accessKeyHash: 'e'.repeat(64), sessionId: ID });
  const redacted = await lifecycle.redact(ID);
  assert.equal(redacted.status, 'submitted');
  assert.deepEqual(redacted.metadata, {});
  await followed.applyStatus('tok-late', { status: 'REFUSED', source: 'webhook', externalId: 'ext-late-personal' });
  const view = (await sessions.view(ID))!;
  assert.equal(view.status, 'completed');
  assert.equal(view.onboarding?.status, 'REFUSED');
  assert.equal(view.onboarding?.externalId, undefined);
  assert.equal((await store.getSession(ID))?.outcome?.externalId, undefined);
  assert.equal((await store.get('tok-late'))?.externalId, undefined);
  assert.ok(!store.snapshot().includes('ext-late-personal'), 'nowhere in the store');
  await sessions.close();
});
