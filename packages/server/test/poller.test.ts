import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { createBody } from './helpers/fixtures.js';
import { created, testCompanion, webhook } from './helpers/companion.js';

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

test('a webhook outcome stops polling; polling backs off after the fast phase and gives up when bounded', async () => {
  const timings = { firstDelayMs: 20, intervalMs: 20, fastPhaseMs: 60, maxIntervalMs: 1000, maxDurationMs: 400 };
  const { app } = testCompanion(up, { poll: timings });
  const viaWebhook = await created(app, createBody());
  const createdAt = Date.now();
  const slow = await created(app, createBody());
  const createdBy = Date.now();
  await waitFor(() => reportsOf(viaWebhook.tokenOnboarding).length >= 1);
  await webhook(app, { tokenOnboarding: viaWebhook.tokenOnboarding, status: 'APPROVED' });
  const afterWebhook = reportsOf(viaWebhook.tokenOnboarding).length;
  await new Promise((r) => setTimeout(r, 700));
  assert.equal(reportsOf(viaWebhook.tokenOnboarding).length, afterWebhook, 'no poll after the webhook outcome');

  // Timers only ever fire late, never early: each gap is at least its scheduled delay.
  const times = reportsOf(slow.tokenOnboarding).map((c) => c.at);
  assert.ok(times.length >= 3, `polls: ${times.length}`);
  assert.ok(times[0]! - createdAt >= timings.firstDelayMs - 5);
  const gaps = times.slice(1).map((t, i) => t - times[i]!);
  for (const [i, gap] of gaps.entries()) {
    // Polls near the end of the fast phase could fall on either side of it: only clear cases count.
    const early = times[i]! - createdBy < timings.fastPhaseMs - 10;
    const late = times[i]! - createdAt > timings.fastPhaseMs + 10;
    const minimum = early ? timings.intervalMs : late ? 2 * timings.intervalMs : timings.intervalMs;
    assert.ok(gap >= minimum - 5, `gap ${i} (${gap} ms after a poll at ${times[i]! - createdAt} ms) shorter than ${minimum} ms`);
  }
  assert.ok(gaps.some((g, i) => times[i]! - createdAt > timings.fastPhaseMs + 10 && g >= 4 * timings.intervalMs - 5), `backing off: gaps ${gaps.join(', ')}`);
  // Nothing scheduled past maxDurationMs (slack for a loaded machine), and nothing more afterwards.
  assert.ok(times.at(-1)! - createdAt <= timings.maxDurationMs + 300, `last poll at ${times.at(-1)! - createdAt} ms`);
  const count = times.length;
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(reportsOf(slow.tokenOnboarding).length, count, 'polling gave up after maxDurationMs');
  assert.equal((await app.store.get(slow.tokenOnboarding))!.status, 'IN_PROCESS');
  await app.close();
});
