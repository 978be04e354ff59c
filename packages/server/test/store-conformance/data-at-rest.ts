/**
 * Personal data at rest (docs/backend-api.md#personal-data-at-rest): with a data key, the state a
 * store holds (the SQLite file and its WAL, every Redis value, the memory maps) has no CPF, name or
 * notification body in plain text; keys rotate; a record sealed with a key the store lacks is
 * refused naming the key id, never the data.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SessionRecord } from '../../src/store/backend-state.js';
import { DataKeyError } from '../../src/store/errors.js';
import { START, entry, iso, secretsOf, session, sha, type Harness } from './harness.js';

const CPF = '52998224725';
const NAME = 'Maria Aparecida Quaresma';
const EMAIL = 'maria.quaresma@example.com';
const keyText = (id: string, fill: number) => `${id}:${Buffer.alloc(32, fill).toString('base64')}`;
const K1 = keyText('k1', 1);
const K2 = keyText('k2', 2);
const K1_OTHER_BYTES = keyText('k1', 9);
const K3 = keyText('k3', 3);

const personal = (id: string, over: Partial<SessionRecord> = {}): SessionRecord =>
  session(id, {
    taxId: { kind: 'cpf', value: CPF },
    name: NAME,
    metadata: { email: EMAIL, plan: 'gold' },
    returnUrl: `https://app.example/kyc/done?who=${encodeURIComponent(EMAIL)}`,
    claim: { key: 'idem-1', fingerprint: sha('body'), at: iso(START) },
    ...over,
  });
const notification = (id: string) =>
  entry(id, { body: JSON.stringify({ id, type: 'query.completed', data: { cpf: CPF, nome: NAME, email: EMAIL } }) });

function assertNoPersonalData(raw: string, where: string): void {
  for (const [what, value] of [
    ['CPF', CPF],
    ['formatted CPF', '529.982.247-25'],
    ['name', NAME],
    ['e-mail', EMAIL],
  ] as const)
    assert.equal(raw.includes(value), false, `${where}: the ${what} is not in the stored state in plain text`);
}

/** Rejects with a DataKeyError naming `keyId` and none of the data. */
async function refused(read: Promise<unknown>, keyId: string): Promise<void> {
  await assert.rejects(read, (e: unknown) => {
    assert.ok(e instanceof DataKeyError, `a DataKeyError, got ${String(e)}`);
    assert.match(e.message, new RegExp(`"${keyId}"`), 'the message names the key id');
    assert.equal(e.keyId, keyId);
    assertNoPersonalData(e.message + String(e.stack), 'the error');
    return true;
  });
}

export function describeDataAtRest({ withBackend }: Harness): void {
  test('data at rest: without a key the state holds personal data as given (what the sealed dumps below are compared with)', async () => {
    await withBackend(async (a, { rawState }) => {
      await a.createSession(personal('ses_plain'), secretsOf('ses_plain'));
      await a.enqueueNotification(notification('evt_plain'));
      const raw = await rawState();
      assert.ok(raw.includes(CPF) && raw.includes(NAME) && raw.includes(EMAIL), 'the dump sees what the store holds');
    });
  });

  test('data at rest: with a data key, sessions and notification bodies are sealed in the stored state and read back as written', async () => {
    await withBackend(
      async (a, { peer, rawState }) => {
        const b = await peer({ dataKey: K1 });
        const s = personal('ses_pd');
        await a.createSession(structuredClone(s), secretsOf('ses_pd'));
        assert.deepEqual(await b.getSession('ses_pd'), s, 'read back whole, without the sealed form');
        const next: SessionRecord = { ...s, version: 2, status: 'submitted', tokenOnboarding: 'tok-pd', name: `${NAME} Filho` };
        assert.equal(await b.replaceSession(structuredClone(next), 1), true);
        assert.deepEqual(await a.getSession('ses_pd'), next);
        assert.deepEqual(await a.findSessionBySecret('client', secretsOf('ses_pd').client), next);
        assert.deepEqual(await a.listSessionsByReference(s.reference, 10), [next]);
        assert.deepEqual(await a.listSessionsByStatus('submitted', { limit: 10 }), [next]);
        await a.createSession(session('ses_none'), secretsOf('ses_none'));
        assert.deepEqual(await b.getSession('ses_none'), session('ses_none'), 'a session without personal fields reads back as it was');

        const n = notification('evt_pd');
        assert.equal(await a.enqueueNotification(n), true);
        assert.equal(await b.enqueueNotification(n), false, 'still idempotent by id');
        assert.deepEqual(await b.getNotification('evt_pd'), n);
        assert.deepEqual(await b.dueNotifications(START, 10), [n]);
        assert.deepEqual(await a.listNotifications({ state: 'pending', limit: 10 }), [n]);
        await a.updateNotification('evt_pd', { state: 'delivered', attempts: 1, nextAttemptMs: START, deliveredAt: iso(START) });
        assert.equal((await b.getNotification('evt_pd'))?.body, n.body, 'a try keeps the body');

        const raw = await rawState();
        assertNoPersonalData(raw, 'with a data key');
        assert.match(raw, /pd1\.k1\.[A-Za-z0-9_-]{16}\./, 'sealed values carry their key id');
      },
      { dataKey: K1 },
    );
  });

  test('data at rest: the answers a hand-off carries to the phone are sealed with the session, read back, and go when the session drops them', async () => {
    await withBackend(
      async (a, { peer, rawState }) => {
        const b = await peer({ dataKey: K1 });
        const answers = { consentAt: iso(START + 60_000), cpf: CPF, name: NAME, documentType: 'CNH' };
        // A session without a prefill: the answers are its only personal data.
        const s = session('ses_ho', { handoff: { holderHash: sha('device') }, handoffAnswers: answers });
        await a.createSession(structuredClone(s), secretsOf('ses_ho'));
        assertNoPersonalData(await rawState(), 'with hand-off answers');
        assert.deepEqual(await b.getSession('ses_ho'), s, 'read back whole by another instance');
        assert.deepEqual(await a.findSessionBySecret('client', secretsOf('ses_ho').client), s);
        const { handoffAnswers: _gone, ...taken } = s;
        assert.equal(await b.replaceSession(structuredClone({ ...taken, version: 2 }), 1), true);
        assert.deepEqual(await a.getSession('ses_ho'), { ...taken, version: 2 }, 'dropped: read back without them');
      },
      { dataKey: K1 },
    );
  });

  test('data at rest: keys rotate: the first key seals, every key given opens', async () => {
    await withBackend(
      async (old, { peer, rawState }) => {
        await old.createSession(personal('ses_old'), secretsOf('ses_old'));
        await old.enqueueNotification(notification('evt_old'));
        const rotated = await peer({ dataKey: `${K2},${K1}` });
        const before = (await rotated.getSession('ses_old'))!;
        assert.deepEqual(before, personal('ses_old'), 'the old key still opens what it sealed');
        assert.equal((await rotated.getNotification('evt_old'))?.body, notification('evt_old').body);

        await rotated.createSession(personal('ses_new'), secretsOf('ses_new'));
        await rotated.enqueueNotification(notification('evt_new'));
        assert.match(await rawState(), /pd1\.k2\./, 'new writes are sealed with the first key');
        await refused(old.getSession('ses_new'), 'k2');
        await refused(old.getNotification('evt_new'), 'k2');

        assert.equal(await rotated.replaceSession({ ...before, version: 2, status: 'expired', endedAt: iso(START) }, 1), true);
        await refused(old.getSession('ses_old'), 'k2');
        assert.equal((await rotated.getSession('ses_old'))?.name, NAME, 'a rewrite moves a record to the new key');
        assertNoPersonalData(await rawState(), 'after a rotation');
      },
      { dataKey: K1 },
    );
  });

  test('data at rest: a record sealed with a key the store lacks, or other bytes under its id, is refused naming the key id', async () => {
    await withBackend(
      async (a, { peer }) => {
        await a.createSession(personal('ses_k1'), secretsOf('ses_k1'));
        await a.enqueueNotification(notification('evt_k1'));
        for (const dataKey of [undefined, K3, K1_OTHER_BYTES]) {
          const b = await peer(dataKey === undefined ? {} : { dataKey });
          await refused(b.getSession('ses_k1'), 'k1');
          await refused(b.findSessionBySecret('capture', secretsOf('ses_k1').capture), 'k1');
          await refused(b.listSessionsByReference('user-8812', 10), 'k1');
          await refused(b.getNotification('evt_k1'), 'k1');
          await refused(b.dueNotifications(START, 10), 'k1');
        }
      },
      { dataKey: K1 },
    );
  });
}
