/**
 * Where an asynchronous inspection stands after the upstream answered about it, when it is
 * consulted next, and an inspection given up: failed, with its one `query.completed`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Outcome } from '@onboarding-kit/contract';
import { INSPECTION_CHECKS } from '../src/config/defaults.js';
import { silentLogger } from '../src/logger.js';
import { Notifier } from '../src/notifications/outbox.js';
import { inspectionVerdict, nextCheckDelay } from '../src/queries/inspection-rules.js';
import { QueryService } from '../src/queries/query-service.js';
import type { Timers } from '../src/relay/timers.js';
import { MemoryStore } from '../src/store/index.js';

const KEY = '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
const answered = (kind: Outcome['kind'], result?: Record<string, unknown>): Outcome => ({
  kind,
  ok: kind === 'success' || kind === 'no-data',
  retryable: false,
  ...(result && { result }),
});

test('an inspection runs while its status is absent or IN_PROCESS, or the upstream failed technically; any other answer ends it', () => {
  assert.equal(inspectionVerdict(answered('success', { key: KEY, status: 'IN_PROCESS' })), 'pending');
  assert.equal(inspectionVerdict(answered('success', { key: KEY })), 'pending');
  assert.equal(inspectionVerdict(answered('error')), 'pending');
  assert.equal(inspectionVerdict(answered('unauthorized')), 'pending');
  assert.equal(inspectionVerdict(answered('success', { key: KEY, status: 'APPROVED' })), 'completed');
  assert.equal(inspectionVerdict(answered('success', { key: KEY, status: 'SOMETHING_ELSE' })), 'completed');
  assert.equal(inspectionVerdict(answered('refused')), 'completed');
  for (const kind of ['no-data', 'no-access', 'missing-image', 'face-not-found', 'failed'] as const)
    assert.equal(inspectionVerdict(answered(kind, {})), 'failed', kind);
});

test('consultations double from the first wait up to the longest', () => {
  const s = { firstDelayMs: 5_000, maxDelayMs: 300_000 };
  assert.deepEqual(
    [0, 1, 2, 3, 6, 7, 50].map((n) => nextCheckDelay(n, s)),
    [5_000, 10_000, 20_000, 40_000, 300_000, 300_000, 300_000],
  );
});

test('an inspection still running past its time is given up: failed, no result, one query.completed saying so', async () => {
  let now = Date.parse('2030-01-01T00:00:00.000Z');
  const timers: Timers = { now: () => now, setTimeout: () => ({}), clearTimeout: () => {} };
  const store = new MemoryStore({ now: () => now });
  const notifier = new Notifier({
    environment: 'test',
    store,
    url: 'https://backend.example/hooks',
    secret: 'x'.repeat(32),
    logger: silentLogger,
    deliver: false,
  });
  let consultations = 0;
  const queries = new QueryService({
    store,
    consult: async () => {
      consultations++;
      return answered('success', { key: KEY, status: 'IN_PROCESS' });
    },
    notifier,
    logger: silentLogger,
    timers,
    checks: INSPECTION_CHECKS,
    retentionMs: 86_400_000,
    maxAgeMs: 172_800_000,
  });
  const request = await queries.answered({
    service: 'SERVICE_DIGITAL_DOCUMENTOSCOPY',
    key: KEY,
    outcome: answered('success', { key: KEY, status: 'IN_PROCESS' }),
    notify: true,
  });
  assert.equal(request.status, 'pending');
  now += INSPECTION_CHECKS.firstDelayMs;
  await queries.round();
  assert.equal(consultations, 1);
  const rescheduled = (await store.getQueryRequest(request.id))!;
  assert.equal(rescheduled.status, 'pending');
  assert.equal(rescheduled.nextCheckMs, now + 2 * INSPECTION_CHECKS.firstDelayMs);
  assert.deepEqual(await store.dueNotifications(Number.MAX_SAFE_INTEGER, 10), [], 'a pending request sends nothing, notify or not');

  now += INSPECTION_CHECKS.giveUpAfterMs;
  await queries.round();
  const failed = (await store.getQueryRequest(request.id))!;
  assert.equal(failed.status, 'failed');
  assert.equal(failed.outcome, undefined);
  const events = await store.dueNotifications(Number.MAX_SAFE_INTEGER, 10);
  assert.equal(events.length, 1);
  assert.deepEqual(JSON.parse(events[0]!.body).data, {
    requestId: request.id,
    service: 'SERVICE_DIGITAL_DOCUMENTOSCOPY',
    status: 'failed',
    key: KEY,
  });
  await queries.round();
  assert.equal(consultations, 2, 'an ended request is not consulted again');
  await queries.close();
  await notifier.close();
});
