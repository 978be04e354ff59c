/**
 * The Redis store's sessions and notification outbox where the conformance suite does not look:
 * listings and purges longer than one page (200 members), index members whose record is gone
 * (Redis expired it, or a sweep raced a write), entries read half-written, and the queue order
 * when the due index and the creation order disagree.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { RedisStore } from '../src/store/index.js';
import { START, entry, ids, iso, secretsOf, session } from './store-conformance/harness.js';
import { redisForFile } from './helpers/redis-server.js';

const redis = redisForFile();

async function withStore(body: (store: RedisStore, prefix: string) => Promise<void>) {
  const prefix = `backend-${randomUUID()}:`;
  const store = await RedisStore.connect(redis.server.url, { prefix });
  try {
    await body(store, prefix);
  } finally {
    await store.close();
  }
}

/** More than two pages of the store's listings and sweeps. */
const MANY = 450;
const ghost = '000000999999999:ghost';
const sessionIds = (from: number, to: number, step = 1) => {
  const out: string[] = [];
  for (let i = from; step > 0 ? i < to : i > to; i += step) out.push(`ses_${i}`);
  return out;
};

async function createSessions(store: RedisStore) {
  for (let i = 0; i < MANY; i++) {
    const id = `ses_${i}`;
    await store.createSession(session(id, { createdAt: iso(START + i), expiresAt: iso(START + 1800_000 + i) }), secretsOf(id));
  }
}

test('sessions by reference: newest first across pages, up to the limit, skipping and dropping the ones Redis expired', async () => {
  await withStore(async (store, prefix) => {
    await createSessions(store);
    assert.deepEqual(ids(await store.listSessionsByReference('user-8812', MANY)), sessionIds(MANY - 1, -1, -1));
    // The ten newest lapse: their members sit on the first page and leave the index as it is read.
    for (let i = MANY - 10; i < MANY; i++) await redis.raw.del(`${prefix}session:ses_${i}`);
    assert.deepEqual(ids(await store.listSessionsByReference('user-8812', 205)), sessionIds(MANY - 11, MANY - 216, -1));
    assert.equal(await redis.raw.zCard(`${prefix}sessions:reference:user-8812`), MANY - 10, 'the lapsed members left the index');
    assert.deepEqual(ids(await store.listSessionsByReference('user-8812', MANY)), sessionIds(MANY - 11, -1, -1));
  });
});

test('sessions by status: soonest expiry first across pages, only those expiring before the bound', async () => {
  await withStore(async (store) => {
    await createSessions(store);
    const listed = await store.listSessionsByStatus('open', { limit: MANY, expiresBefore: new Date(START + 1800_000 + 300) });
    assert.deepEqual(ids(listed), sessionIds(0, 300));
    assert.deepEqual(ids(await store.listSessionsByStatus('open', { limit: 201 })), sessionIds(0, 201));
  });
});

test('a session id is created once: a second creation fails and leaves the first as it was', async () => {
  await withStore(async (store) => {
    await store.createSession(session('ses_once'), secretsOf('ses_once'));
    await assert.rejects(store.createSession(session('ses_once', { reference: 'other' }), secretsOf('ses_once')), /exists already/);
    assert.equal((await store.getSession('ses_once'))?.reference, 'user-8812');
  });
});

test('the sweep deletes sessions and settled notifications page after page, counting only what it deleted', async () => {
  await withStore(async (store, prefix) => {
    await createSessions(store);
    for (let i = 0; i < MANY; i++) {
      await store.enqueueNotification(entry(`evt_${i}`, { orderKey: `ses_${i}` }));
      await store.updateNotification(`evt_${i}`, { state: 'delivered', attempts: 1, nextAttemptMs: START, deliveredAt: iso(START) });
    }
    // Members whose record is already gone: cleaned from the indexes, not counted.
    await redis.raw.zAdd(`${prefix}sessions:created`, { score: 0, value: ghost });
    await redis.raw.zAdd(`${prefix}outbox:settled`, { score: 0, value: ghost });
    const cutoffs = { sessionsEndedBefore: new Date(0), sessionsCreatedBefore: new Date(START + MANY), outboxBefore: new Date(START + 1) };
    assert.equal(await store.purgeBackendState(cutoffs), 2 * MANY);
    assert.deepEqual(await store.listSessionsByReference('user-8812', 10), []);
    assert.deepEqual(await store.listNotifications({ state: 'delivered', limit: 10 }), []);
    assert.equal(await redis.raw.zScore(`${prefix}sessions:created`, ghost), null);
    assert.equal(await redis.raw.zScore(`${prefix}outbox:settled`, ghost), null);
    assert.equal(await store.purgeBackendState(cutoffs), 0, 'nothing twice');
  });
});

test('notification listings: newest first across pages, up to the limit', async () => {
  await withStore(async (store) => {
    for (let i = 0; i < MANY; i++) await store.enqueueNotification(entry(`evt_${i}`, { createdAt: iso(START + i) }));
    const newestFirst = Array.from({ length: MANY }, (_, i) => `evt_${MANY - 1 - i}`);
    assert.deepEqual(ids(await store.listNotifications({ state: 'pending', limit: MANY })), newestFirst);
    assert.deepEqual(ids(await store.listNotifications({ state: 'pending', limit: 205 })), newestFirst.slice(0, 205));
  });
});

test('due notifications: queue order even where the due index disagrees; members without a usable entry are skipped', async () => {
  await withStore(async (store, prefix) => {
    // Inserted late-first, each due sooner than the one before: the due index holds them backwards.
    await store.enqueueNotification(entry('evt_late', { createdAt: iso(START + 2), nextAttemptMs: START - 1 }));
    await store.enqueueNotification(entry('evt_tie_a', { createdAt: iso(START), nextAttemptMs: START - 2 }));
    await store.enqueueNotification(entry('evt_tie_b', { createdAt: iso(START), nextAttemptMs: START - 3 }));
    await store.enqueueNotification(entry('evt_early', { createdAt: iso(START - 5), nextAttemptMs: START - 4 }));
    assert.deepEqual(ids(await store.dueNotifications(START, 10)), ['evt_early', 'evt_tie_a', 'evt_tie_b', 'evt_late']);
    // An index member with no entry and no place in the queue, due first by the index: it takes no place.
    await redis.raw.zAdd(`${prefix}outbox:due`, { score: 0, value: ghost });
    assert.deepEqual(ids(await store.dueNotifications(START, 1)), ['evt_early']);

    // Due by the index, but the entry itself says later (a try recorded as the index was read).
    await store.enqueueNotification(entry('evt_moved', { createdAt: iso(START - 9) }));
    const moved = JSON.parse((await redis.raw.hGet(`${prefix}outbox:evt_moved`, 'try'))!) as Record<string, unknown>;
    await redis.raw.hSet(`${prefix}outbox:evt_moved`, 'try', JSON.stringify({ ...moved, nextAttemptMs: START + 60_000 }));
    // Half-written: its try is missing.
    await store.enqueueNotification(entry('evt_half', { createdAt: iso(START - 8) }));
    await redis.raw.hDel(`${prefix}outbox:evt_half`, 'try');
    assert.deepEqual(ids(await store.dueNotifications(START, 10)), ['evt_early', 'evt_tie_a', 'evt_tie_b', 'evt_late']);
    // First in queue order, they take none of the limit's places: the limit is filled with due entries behind them.
    assert.deepEqual(ids(await store.dueNotifications(START, 2)), ['evt_early', 'evt_tie_a']);
    assert.deepEqual(ids(await store.dueNotifications(START, 3)), ['evt_early', 'evt_tie_a', 'evt_tie_b']);
    assert.equal(await store.getNotification('evt_half'), null, 'an entry without its try reads as none');
  });
});
