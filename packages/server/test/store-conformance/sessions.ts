/** The backend's sessions: records, secrets, compare-and-set, and the listings by reference and by status. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SessionRecord } from '../../src/store/backend-state.js';
import { START, iso, sha, session, secretsOf, ids, type Harness } from './harness.js';

export function describeSessions({ withBackend }: Harness): void {
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
      assert.deepEqual(await b.findSessionBySecret('client', sha('client-ses_1-replay')), next, 'a secret finds the session as it is now');
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
      assert.deepEqual(ids(await b.listSessionsByStatus('open', { limit: 100 })), ['ses_open_1', 'ses_open_2', 'ses_open_3', 'ses_open_4']);
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
}
