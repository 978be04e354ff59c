/**
 * Polling through the companion against the sandbox: the report is read with the Bearer token and
 * its outcome stored. The sandbox's webhooks go to the stack's own companion, never to the one
 * under test, so only polling can tell it. Timings, leases and takeovers are in
 * poller-leases.test.ts, on a clock the test moves.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { companionOn, startStack, TEST_IDENTITIES, type Stack } from '@onboarding-kit/testing/stack';
import { settle } from '@onboarding-kit/testing/manual-clock';
import { MemoryStore } from '@onboarding-kit/server';
import { leapTimers } from './helpers/leap-timers.js';
import { createBody } from './helpers/fixtures.js';
import { created } from './helpers/companion.js';

let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(() => stack.close());

const reportsOf = (token: string) => stack.upstreamCalls.filter((c) => c.path === `/api/onboarding/report/${token}`);
const waitFor = async (cond: () => boolean | Promise<boolean>, ms = 3000) => {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** A memory store that counts the reads of each onboarding (a poll begins with one). */
class CountedReads extends MemoryStore {
  readonly reads = new Map<string, number>();
  override async get(token: string) {
    this.reads.set(token, (this.reads.get(token) ?? 0) + 1);
    return super.get(token);
  }
}

test('polling brings the outcome without any webhook, with the Bearer token, then stops', async () => {
  const store = new CountedReads();
  const timers = leapTimers();
  const { app } = companionOn(stack, { store, timers, poll: { firstDelayMs: 20, intervalMs: 30, fastPhaseMs: 10_000 } });
  // The manual-review identity stays IN_PROCESS until the test decides it.
  const o = await created(app, createBody({ cpf: TEST_IDENTITIES.cpfManualReview }));
  await waitFor(() => reportsOf(o.tokenOnboarding).length >= 2);
  assert.equal((await app.store.get(o.tokenOnboarding))!.status, 'IN_PROCESS');
  await stack.sandbox.decide(o.tokenOnboarding, 'ERROR');
  await waitFor(async () => (await app.store.get(o.tokenOnboarding))!.status === 'ERROR');
  const record = (await app.store.get(o.tokenOnboarding))!;
  assert.match(record.externalId ?? '', /^[0-9a-f-]{36}$/, 'the externalId the sandbox made up');
  assert.deepEqual(
    record.history.map((h) => h.source),
    ['creation', 'poll'],
  );
  assert.match(reportsOf(o.tokenOnboarding)[0]!.headers.authorization!, /^Bearer /);
  // Nothing is scheduled for it: every pending timer fires, and none reads it or asks the upstream.
  await settle();
  const count = reportsOf(o.tokenOnboarding).length;
  const reads = store.reads.get(o.tokenOnboarding);
  timers.leap();
  await settle();
  assert.equal(store.reads.get(o.tokenOnboarding), reads, 'no poll after the outcome');
  assert.equal(reportsOf(o.tokenOnboarding).length, count);
  await app.close();
});

test("checkNow (a webhook's hint): one report read for calls at once, its status applied; null when unknown, decided, failed or closed", async () => {
  const { StatusPoller } = await import('../src/relay/poller.js');
  const { silentLogger } = await import('@onboarding-kit/server');
  const store = new MemoryStore();
  let reads = 0;
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let answer: 'APPROVED' | 'fail' = 'APPROVED';
  const poller = new StatusPoller({
    store,
    logger: silentLogger,
    takeOver: false,
    report: async (tokenOnboarding) => {
      reads++;
      await gate;
      if (answer === 'fail') throw new Error('upstream down');
      return { tokenOnboarding, status: answer, externalId: 'ext-upstream' };
    },
  });
  const seed = (tokenOnboarding: string) =>
    store.create({ tokenOnboarding, status: 'IN_PROCESS', createdAt: new Date().toISOString(), accessKeyHash: 'x'.repeat(64) });
  await seed('t-now');
  const both = [poller.checkNow('t-now', 'webhook'), poller.checkNow('t-now', 'webhook')];
  open();
  assert.deepEqual(await Promise.all(both), ['APPROVED', 'APPROVED']);
  assert.equal(reads, 1, 'calls at once share one read');
  const record = (await store.get('t-now'))!;
  assert.deepEqual([record.status, record.externalId, record.history.at(-1)!.source], ['APPROVED', 'ext-upstream', 'webhook']);
  assert.equal(await poller.checkNow('t-now', 'webhook'), null, 'decided: nothing to read');
  assert.equal(await poller.checkNow('t-nobody', 'webhook'), null, 'unknown: nothing to read');
  assert.equal(reads, 1);
  await seed('t-down');
  answer = 'fail';
  assert.equal(await poller.checkNow('t-down', 'webhook'), null, 'a failed read applies nothing');
  assert.equal((await store.get('t-down'))!.status, 'IN_PROCESS');
  await poller.close();
  answer = 'APPROVED';
  assert.equal(await poller.checkNow('t-down', 'webhook'), null, 'closed: no read');
  assert.equal(reads, 2);
});
