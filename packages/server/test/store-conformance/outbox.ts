/** The notification outbox: idempotent inserts, queue order, tries and the listings by state. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { START, iso, entry, ids, type Harness } from './harness.js';

export function describeOutbox({ withBackend }: Harness): void {
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
}
