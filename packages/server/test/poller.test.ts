/**
 * Polling through the companion against a real HTTP upstream: the report is read with the Bearer
 * token and its outcome stored. Timings, leases and takeovers are in poller-leases.test.ts, on a
 * clock the test moves.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { createBody } from './helpers/fixtures.js';
import { created, testCompanion } from './helpers/companion.js';

let up: FakeUpstream;
before(async () => { up = await startFakeUpstream(); });
after(() => up.close());

const reportsOf = (token: string) => up.calls.filter((c) => c.path === `/api/onboarding/report/${token}`);
const waitFor = async (cond: () => boolean | Promise<boolean>, ms = 3000) => {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
};

test('polling brings the outcome without any webhook, with the Bearer token, then stops', async () => {
  const { app } = testCompanion(up, { poll: { firstDelayMs: 20, intervalMs: 30, fastPhaseMs: 10_000 } });
  const o = await created(app, createBody());
  await waitFor(() => reportsOf(o.tokenOnboarding).length >= 2);
  assert.equal((await app.store.get(o.tokenOnboarding))!.status, 'IN_PROCESS');
  up.reportStatus.set(o.tokenOnboarding, { status: 'ERROR', externalId: 'ext-poll' });
  await waitFor(async () => (await app.store.get(o.tokenOnboarding))!.status === 'ERROR');
  const record = (await app.store.get(o.tokenOnboarding))!;
  assert.equal(record.externalId, 'ext-poll');
  assert.deepEqual(record.history.map((h) => h.source), ['creation', 'poll']);
  assert.match(reportsOf(o.tokenOnboarding)[0]!.headers.authorization!, /^Bearer /);
  const count = reportsOf(o.tokenOnboarding).length;
  await new Promise((r) => setTimeout(r, 120));
  assert.equal(reportsOf(o.tokenOnboarding).length, count, 'no poll after the outcome');
  await app.close();
});
