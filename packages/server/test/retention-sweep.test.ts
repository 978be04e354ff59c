/**
 * The retention sweep on a clock the test moves: finished onboardings go once the retention
 * window has passed (at the next sweep), unfinished ones once they reach the maximum age, nothing
 * earlier; a failing store is logged and the sweeps go on; a slow sweep is never overlapped; and
 * close() leaves no timer behind.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createJsonLogger, MemoryStore } from '@onboarding-kit/server';
import { RetentionSweep, sweepInterval } from '../src/lifecycle/retention-sweep.js';
import { ManualClock } from '@onboarding-kit/testing/manual-clock';

const MIN = 60_000;

function setup(options: { retentionMs?: number; maxAgeMs?: number } = {}) {
  const clock = new ManualClock();
  const store = new MemoryStore({ now: clock.now });
  const logs: string[] = [];
  const logger = createJsonLogger({ sink: (l) => logs.push(l), level: 'debug' });
  const iso = () => new Date(clock.now()).toISOString();
  const add = async (token: string, outcome?: 'APPROVED' | 'REFUSED') => {
    await store.create({ tokenOnboarding: token, status: 'IN_PROCESS', createdAt: iso(), accessKeyHash: 'h' });
    if (outcome) await store.applyStatus(token, { status: outcome, source: 'webhook' });
  };
  const sweep = new RetentionSweep({
    store,
    retentionMs: options.retentionMs ?? 10 * MIN,
    maxAgeMs: options.maxAgeMs ?? 30 * MIN,
    logger,
    timers: clock,
  });
  const present = async (...tokens: string[]) => (await Promise.all(tokens.map((t) => store.get(t)))).map((r) => r !== null);
  return { clock, store, logs, add, sweep, present };
}

test('the sweep runs every quarter of the retention window, from 1 s to 1 min', () => {
  assert.equal(sweepInterval(50), 1_000);
  assert.equal(sweepInterval(8_000), 2_000);
  assert.equal(sweepInterval(24 * 60 * MIN), 60_000);
});

test('finished onboardings go once the retention window has passed, unfinished ones at the maximum age', async () => {
  const s = setup();
  await s.add('finished', 'APPROVED');
  await s.add('open');
  // A sweep every minute: at 10 min the finished one is exactly at the cutoff, not past it.
  await s.clock.advance(10 * MIN);
  assert.deepEqual(await s.present('finished', 'open'), [true, true]);
  await s.clock.advance(1 * MIN);
  assert.deepEqual(await s.present('finished', 'open'), [false, true], 'the next sweep after the window deletes the finished one');
  assert.ok(s.logs.some((l) => l.includes('expired onboardings deleted') && l.includes('"count":1')));
  await s.clock.advance(19 * MIN);
  assert.deepEqual(await s.present('open'), [true], 'exactly at the maximum age: still there');
  await s.clock.advance(1 * MIN);
  assert.deepEqual(await s.present('open'), [false], 'past the maximum age, finished or not');
  s.sweep.close();
});

test('nothing is deleted between sweeps; a record finished later gets its own full window', async () => {
  const s = setup({ retentionMs: 8_000, maxAgeMs: 60 * MIN });
  await s.add('early', 'REFUSED');
  await s.clock.advance(5_000);
  await s.add('late', 'APPROVED');
  // Sweeps every 2 s. At 8 s "early" (finished at 0) is exactly at the cutoff; at 10 s it is past it.
  await s.clock.advance(4_999);
  assert.deepEqual(await s.present('early', 'late'), [true, true], 'no sweep between 8 s and 9.999 s');
  await s.clock.advance(1);
  assert.deepEqual(await s.present('early', 'late'), [false, true], 'the sweep at 10 s');
  // "late" (finished at 5 s) is past its window from 13 s: the sweep at 12 s keeps it, the one at 14 s does not.
  await s.clock.advance(3_999);
  assert.deepEqual(await s.present('late'), [true]);
  await s.clock.advance(1);
  assert.deepEqual(await s.present('late'), [false]);
  s.sweep.close();
});

test('a failing store is logged and the next sweep still comes; a slow one is never overlapped; close() stops it', async () => {
  const clock = new ManualClock();
  const logs: string[] = [];
  let calls = 0;
  let fail = true;
  let release: (() => void) | undefined;
  const store = {
    async expire() {
      calls++;
      if (fail) throw new Error('store down');
      await new Promise<void>((r) => (release = r));
      return 2;
    },
  };
  const sweep = new RetentionSweep({
    store,
    retentionMs: 4_000,
    maxAgeMs: 60_000,
    logger: createJsonLogger({ sink: (l) => logs.push(l) }),
    timers: clock,
  });
  await clock.advance(1_000);
  assert.equal(calls, 1);
  assert.ok(logs.some((l) => l.includes('retention sweep failed')));
  fail = false;
  await clock.advance(1_000);
  assert.equal(calls, 2, 'the sweep after a failure runs');
  await clock.advance(10_000);
  assert.equal(calls, 2, 'no second sweep while one is still running');
  release!();
  await clock.advance(999);
  assert.equal(calls, 2);
  await clock.advance(1);
  assert.equal(calls, 3, 'the next one an interval after the slow one ended');
  sweep.close();
  release!();
  await clock.advance(60_000);
  assert.equal(calls, 3, 'none after close()');
  assert.equal(clock.size, 0, 'no timer left behind');
});
