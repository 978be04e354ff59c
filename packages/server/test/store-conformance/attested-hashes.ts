/**
 * Attested hashes (rules/attested-hashes.ts): the first nonce some bytes were attested under is
 * remembered across instances until it lapses; a later attestation learns it, whichever nonce it
 * came under, and changes nothing. Lapsed ones are forgotten, and swept from the backend's state.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SessionRecord } from '../../src/store/backend-state.js';
import { redactedSession } from '../../src/store/rules/redaction.js';
import { START, iso, secretsOf, session, sha, type Harness } from './harness.js';

const keyText = (id: string, fill: number) => `${id}:${Buffer.alloc(32, fill).toString('base64')}`;
const KEYFRAME = Buffer.from('a keyframe: the face of the person, turning left').toString('base64');
/** A session whose creation recorded its capture integrity. */
const attested = (id: string): SessionRecord =>
  session(id, {
    status: 'submitted',
    tokenOnboarding: 'tok-integrity',
    captureNonces: [{ nonce: 'selfie-nonce-0123456789', role: 'selfie', issuedAt: iso(START), consumedAt: iso(START + 1_000) }],
    integrity: {
      signals: [{ name: 'virtual-camera-label', value: 'OBS Virtual Camera' }],
      attestation: { state: 'valid', problems: [], hashes: [{ item: 'keyframe-1', sha256: sha(KEYFRAME) }] },
      keyframes: 1,
    },
    keyframes: [KEYFRAME],
  });

export function describeAttestedHashes({ withBackend, serverClock }: Harness): void {
  test('capture integrity on a session: the keyframes sealed with a data key; a redaction erases keyframes, verdict and nonces', async () => {
    await withBackend(
      async (a, { rawState, peer }) => {
        const s = attested('ses_integrity_sealed');
        await a.createSession(structuredClone(s), secretsOf(s.id));
        assert.equal((await rawState()).includes(KEYFRAME), false, 'the keyframe is not in the stored state in plain text');
        assert.deepEqual(await (await peer({ dataKey: keyText('k1', 1) })).getSession(s.id), s);
        assert.equal(await a.replaceSession({ ...redactedSession(s, iso(START + 5_000)), version: 2 }, 1), true);
        await a.revokeSessionAccess(s.id);
        const stored = (await a.getSession(s.id))!;
        assert.deepEqual([stored.keyframes, stored.integrity, stored.captureNonces], [undefined, undefined, undefined]);
        assert.equal((await rawState()).includes('OBS Virtual Camera'), false);
      },
      { dataKey: keyText('k1', 1) },
    );
  });

  const keepMs = serverClock ? 400 : 60_000;
  const lapse = serverClock ? 1_100 : 60_001;

  test('attested hashes: the first nonce is remembered and answered to every later attestation, on every instance', async () => {
    await withBackend(async (a, { peer }) => {
      const b = await peer();
      const photo = sha('photo-1');
      const other = sha('photo-2');
      assert.deepEqual(
        await a.attestHashes(
          [
            { sha256: photo, nonce: 'nonce-a' },
            { sha256: other, nonce: 'nonce-a' },
          ],
          3600_000,
        ),
        [null, null],
        'never attested before',
      );
      assert.deepEqual(
        await b.attestHashes(
          [
            { sha256: photo, nonce: 'nonce-b' },
            { sha256: sha('photo-3'), nonce: 'nonce-b' },
          ],
          3600_000,
        ),
        ['nonce-a', null],
      );
      assert.deepEqual(await a.attestHashes([{ sha256: photo, nonce: 'nonce-c' }], 3600_000), ['nonce-a'], 'the first one stays');
      assert.deepEqual(await a.attestHashes([{ sha256: other, nonce: 'nonce-a' }], 3600_000), ['nonce-a'], 'the same nonce again');
      const twice = sha('photo-4');
      assert.deepEqual(
        await b.attestHashes(
          [
            { sha256: twice, nonce: 'nonce-d' },
            { sha256: twice, nonce: 'nonce-e' },
          ],
          3600_000,
        ),
        [null, 'nonce-d'],
        'the same bytes twice in one creation: the second learns the first',
      );
      assert.deepEqual(await a.attestHashes([], 3600_000), []);
    });
  });

  test('attested hashes: forgotten once lapsed, then remembered anew; a sweep leaves none behind', async () => {
    await withBackend(async (a, { clock, peer, rawState }) => {
      const b = await peer();
      const photo = sha('lapsing-photo');
      assert.deepEqual(await a.attestHashes([{ sha256: photo, nonce: 'nonce-old' }], keepMs), [null]);
      assert.ok((await rawState()).includes(photo), 'held while it lives');
      await clock.advance(lapse);
      assert.deepEqual(await b.attestHashes([{ sha256: photo, nonce: 'nonce-new' }], keepMs), [null], 'lapsed: as if never seen');
      assert.deepEqual(await a.attestHashes([{ sha256: photo, nonce: 'nonce-x' }], keepMs), ['nonce-new']);
      await clock.advance(lapse);
      const long = new Date(clock.now() - 7 * 86_400_000);
      await a.purgeBackendState({ sessionsEndedBefore: long, sessionsCreatedBefore: long, outboxBefore: long });
      assert.ok(!(await rawState()).includes(photo), 'a lapsed hash is not kept');
    });
  });
}
