/** Retention: what the purge of the backend's state takes and what it leaves. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { START, iso, session, secretsOf, entry, ids, type Harness } from './harness.js';

export function describeRetention({ withBackend }: Harness): void {
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
}
