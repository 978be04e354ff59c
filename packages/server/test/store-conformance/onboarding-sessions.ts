/** What the backend adds to an onboarding record: the session id it belongs to, the access keys of replays, the photos kept anyway. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { START, iso, sha, create, type Harness } from './harness.js';

export function describeOnboardingSessions({ withBackend }: Harness): void {
  test('onboardings: the session id round-trips, and access keys added by replays open it beside the first', async () => {
    await withBackend(async (a, { peer }) => {
      const b = await peer();
      const created = await create(a, 'tok-ses', iso(START), { sessionId: 'ses_1' });
      assert.equal(created.sessionId, 'ses_1');
      assert.equal((await b.get('tok-ses'))!.sessionId, 'ses_1');
      assert.equal((await b.get('tok-ses'))!.moreAccessKeyHashes, undefined, 'none until one is added');

      assert.equal(await b.addAccessKey('tok-ses', sha('key-2')), true);
      assert.equal(await a.addAccessKey('tok-ses', sha('key-3')), true);
      assert.equal(await a.addAccessKey('tok-unknown', sha('key-x')), false);
      assert.equal(await b.get('tok-unknown'), null, 'no onboarding made for an unknown token');
      const read = (await b.get('tok-ses'))!;
      assert.equal(read.accessKeyHash, 'hash-tok-ses', 'the first key stays');
      assert.deepEqual([...read.moreAccessKeyHashes!].sort(), [sha('key-2'), sha('key-3')].sort());
      read.moreAccessKeyHashes!.push('edited');
      assert.deepEqual((await a.get('tok-ses'))!.moreAccessKeyHashes!.length, 2, 'editing what was read changes nothing stored');

      const approved = (await b.applyStatus('tok-ses', { status: 'APPROVED', source: 'webhook' }))!;
      assert.equal(approved.record.sessionId, 'ses_1', 'a status change keeps the session id');
      assert.equal(approved.record.moreAccessKeyHashes?.length, 2, 'and the added keys');
      const after = (await a.get('tok-ses'))!;
      assert.equal(after.sessionId, 'ses_1');
      assert.equal(after.moreAccessKeyHashes?.length, 2);

      // Expiry takes the added keys with the onboarding: a token seen again starts without them.
      const far = new Date(START + 400 * 24 * 3600_000);
      assert.ok((await a.expire({ finishedBefore: far, createdBefore: new Date(0) })) >= 1);
      const again = await create(a, 'tok-ses', iso(START));
      assert.equal(again.sessionId, undefined);
      assert.equal((await b.get('tok-ses'))!.moreAccessKeyHashes, undefined);
      assert.equal((await b.get('tok-ses'))!.sessionId, undefined);
    });
  });

  test('onboardings: the photos kept anyway round-trip, survive a status change, and are absent when none was', async () => {
    await withBackend(async (a, { peer }) => {
      const b = await peer();
      const created = await create(a, 'tok-kept', iso(START), { keptAnyway: { selfie: 'blurry', documentBack: 'too-dark' } });
      assert.deepEqual(created.keptAnyway, { selfie: 'blurry', documentBack: 'too-dark' });
      const read = (await b.get('tok-kept'))!;
      assert.deepEqual(read.keptAnyway, { selfie: 'blurry', documentBack: 'too-dark' });
      read.keptAnyway!.selfie = 'too-bright';
      assert.equal((await a.get('tok-kept'))!.keptAnyway?.selfie, 'blurry', 'editing what was read changes nothing stored');
      const approved = (await b.applyStatus('tok-kept', { status: 'APPROVED', source: 'poll' }))!;
      assert.deepEqual(approved.record.keptAnyway, { selfie: 'blurry', documentBack: 'too-dark' });
      assert.deepEqual((await a.get('tok-kept'))!.keptAnyway, { selfie: 'blurry', documentBack: 'too-dark' });
      await create(a, 'tok-clean', iso(START));
      assert.equal('keptAnyway' in (await b.get('tok-clean'))!, false);
    });
  });
}
