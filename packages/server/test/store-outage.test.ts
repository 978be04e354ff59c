/**
 * A companion on Redis while Redis stops answering (the server process paused, so its data
 * survives): nothing crashes, health says 503 store unavailable, reads, creations and webhooks
 * answer 503 store_unavailable (a webhook that could not be stored is never acknowledged), and
 * once Redis answers again everything recovers by itself: health is 200, and polling brings the
 * outcomes decided meanwhile.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createStore } from '@onboarding-kit/server';
import { eventually } from '@onboarding-kit/testing/deadline';
import { startRedisServer, type RedisServer } from '@onboarding-kit/testing/redis-server';
import { startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { createBody } from './helpers/fixtures.js';
import { created, postJson, testCompanion, webhook } from './helpers/companion.js';

let up: FakeUpstream;
let redis: RedisServer;
before(async () => {
  up = await startFakeUpstream();
  redis = await startRedisServer();
});
after(async () => {
  process.kill(redis.pid, 'SIGCONT');
  await redis.stop();
  await up.close();
});

test('Redis stops answering: 503s, never a 2xx for an unstored webhook, no crash; it answers again: everything recovers by itself', async () => {
  const store = await createStore(redis.url, { redisPrefix: 'outage:', operationTimeoutMs: 500 });
  const { app, logs } = testCompanion(up, { store, poll: { firstDelayMs: 50, intervalMs: 100, leaseMs: 3_000 } });
  try {
    const o = await created(app, createBody());
    const quiet = await created(app, createBody());
    const auth = { authorization: `Bearer ${o.accessKey}` };
    assert.equal((await app.request(`/v1/onboardings/${o.tokenOnboarding}`, { headers: auth })).status, 200);

    process.kill(redis.pid, 'SIGSTOP');
    const health = await app.request('/v1/health');
    assert.equal(health.status, 503);
    assert.deepEqual(await health.json(), { status: 'unavailable', ok: false, store: 'unavailable' });
    const refused = await webhook(app, { tokenOnboarding: o.tokenOnboarding, status: 'APPROVED' });
    assert.equal(refused.status, 503, 'a webhook that could not be stored is not acknowledged');
    assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'store_unavailable');
    assert.equal((await app.request(`/v1/onboardings/${o.tokenOnboarding}`, { headers: auth })).status, 503);
    assert.equal((await postJson(app, '/v1/onboardings', createBody())).status, 503);
    // Meanwhile the upstream decided both: one webhook was refused above, the other was lost on the way.
    up.reportStatus.set(o.tokenOnboarding, { status: 'APPROVED' });
    up.reportStatus.set(quiet.tokenOnboarding, { status: 'REFUSED' });

    process.kill(redis.pid, 'SIGCONT');
    await eventually(async () => (await app.request('/v1/health')).status === 200, 'health back to 200');
    // The refused webhook's write may still land when Redis resumes (it was sent before the timeout); polling brings it otherwise.
    await eventually(async () => (await store.get(o.tokenOnboarding))?.status === 'APPROVED', "the refused webhook's outcome");
    await eventually(async () => (await store.get(quiet.tokenOnboarding))?.status === 'REFUSED', 'polling brings the outcome');
    const record = (await store.get(quiet.tokenOnboarding))!;
    assert.deepEqual(
      record.history.map((h) => [h.status, h.source]),
      [
        ['IN_PROCESS', 'creation'],
        ['REFUSED', 'poll'],
      ],
    );
    assert.equal((await store.get(o.tokenOnboarding))!.history.length, 2, 'one outcome, not two');
    assert.ok(!logs.some((l) => l.includes('unexpected error')), 'an unreachable store is no bug');
  } finally {
    process.kill(redis.pid, 'SIGCONT');
    await app.close();
  }
});
