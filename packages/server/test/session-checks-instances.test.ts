/**
 * A session's checks across restarts and instances: an inspection left pending when its companion
 * stops is consulted by the next one on the same SQLite file and lands on the session; with two
 * instances on one real Redis, `session.checks_completed` reaches the receiver once, with the checks
 * in its data.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { companionOn, startStack, type Stack } from '@onboarding-kit/testing/stack';
import type { NotificationEvent, SessionView } from '@onboarding-kit/contract';
import { RedisStore, SqliteStore } from '../src/store/index.js';
import { startRedisServer, type RedisServer } from './helpers/redis-server.js';
import { startReceiver, until } from './helpers/notify-receiver.js';
import { CHECKS_API_KEY, FAST_INSPECTIONS, checksDone, openSession, submit, viewOf } from './helpers/check-sessions.js';

const SECRET = 'whsec_test_checks_0123456789abcdef01234567';
const CPF = '529.982.247-25';
let stack: Stack;
let redis: RedisServer;
const dir = mkdtempSync(join(tmpdir(), 'okit-checks-'));

before(async () => {
  // The inspection runs 1.5 s: long enough for its first companion to stop while it is pending.
  stack = await startStack({ sandbox: { processingMs: 1_500 } });
  redis = await startRedisServer();
});
after(async () => {
  await stack.close();
  await redis.stop();
  rmSync(dir, { recursive: true, force: true });
});

const consults = () =>
  stack.upstreamCalls.filter((c) => (c.body as Record<string, unknown> | undefined)?.service === 'SERVICE_DIGITAL_DOCUMENTOSCOPY_CONSULT')
    .length;

test('an inspection pending when its companion stops is consulted after the restart, and lands on the session', async () => {
  const file = join(dir, 'checks.db');
  // The first instance stops before its first consultation is due (4 s after the submission).
  const first = companionOn(stack, {
    apiKeys: [CHECKS_API_KEY],
    store: new SqliteStore(file),
    inspectionChecks: { ...FAST_INSPECTIONS, firstDelayMs: 4_000 },
  }).app;
  const s = await openSession(first, { reference: 'restart', cpf: CPF, checks: ['document_inspection', 'ocr'] });
  await submit(first, s, CPF);
  await until(
    async () => (await first.store.dueQueryRequests(Date.now() + 3_600_000, 10)).some((r) => r.sessionId === s.id),
    'pending',
    10_000,
  );
  await until(async () => (await viewOf(first, s.id)).checks!.results.find((r) => r.check === 'ocr')!.state === 'done', 'ocr done', 10_000);
  const before = consults();
  await first.close();
  const stopped = new SqliteStore(file);
  const pending = (await stopped.getSession(s.id))!.checks!;
  await stopped.close();
  assert.equal(pending.results.find((r) => r.check === 'document_inspection')!.state, 'pending');
  assert.equal(pending.completedAt, undefined);

  const second = companionOn(stack, { apiKeys: [CHECKS_API_KEY], store: new SqliteStore(file), inspectionChecks: FAST_INSPECTIONS }).app;
  try {
    const view = await checksDone(second, s.id);
    const inspection = view.checks!.results.find((r) => r.check === 'document_inspection')!;
    assert.equal(inspection.state, 'done');
    assert.equal(inspection.result?.status, 'APPROVED');
    assert.ok(consults() > before, 'the new instance consulted the upstream by key');
    const request = (await second.store.dueQueryRequests(Date.now() + 3_600_000, 10)).find((r) => r.sessionId === s.id);
    assert.equal(request, undefined, 'the request ended');
  } finally {
    await second.close();
  }
});

test('two instances on one Redis: session.checks_completed is delivered once, its data the session with its checks', async () => {
  const receiver = await startReceiver(SECRET);
  const prefix = `okit-checks-${randomUUID().slice(0, 8)}:`;
  const instance = async () =>
    companionOn(stack, {
      apiKeys: [CHECKS_API_KEY],
      store: await RedisStore.connect(redis.url, { prefix }),
      notify: { url: receiver.url, secret: SECRET },
      inspectionChecks: FAST_INSPECTIONS,
    }).app;
  const a = await instance();
  const b = await instance();
  try {
    const s = await openSession(a, { reference: 'two-instances', cpf: CPF, checks: ['document_inspection', 'face_match'] });
    await submit(a, s, CPF);
    await checksDone(b, s.id);
    const completed = () => receiver.delivered().filter((r) => r.type === 'session.checks_completed');
    await until(() => completed().length > 0, 'session.checks_completed delivered', 20_000);
    // Room for a second one to arrive, had either instance queued another.
    await new Promise((r) => setTimeout(r, 1_500));
    assert.equal(completed().length, 1);
    const event = JSON.parse(completed()[0]!.body) as NotificationEvent<SessionView>;
    assert.equal(completed()[0]!.verified, true);
    assert.equal(event.data.id, s.id);
    assert.deepEqual(
      event.data.checks!.results.map((r) => [r.check, r.state]),
      [
        ['document_inspection', 'done'],
        ['face_match', 'done'],
      ],
    );
    assert.ok(event.data.checks!.completedAt);
  } finally {
    await a.close();
    await b.close();
    await receiver.close();
  }
});
