/**
 * The stores at their exact edges, for the memory and SQLite stores on one hand-moved clock: a
 * lease is free at the very millisecond it lapses, a rate window restarts at its very end, a
 * retention cutoff deletes only what is strictly older; and what the status rules promise about
 * externalId (filled by a repeat of the same status only, never erased by a change).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyStatusRules } from '../src/store/rules/status.js';
import { MemoryStore } from '../src/store/memory-store.js';
import { SqliteStore } from '../src/store/sqlite-store.js';
import type { OnboardingRecord, Store } from '../src/store/store.js';

const START = Date.parse('2030-01-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

const kinds: [string, (now: () => number) => Store][] = [
  ['memory', (now) => new MemoryStore({ now })],
  ['sqlite', (now) => new SqliteStore(':memory:', { now })],
];

for (const [kind, open] of kinds) {
  async function withStore(body: (store: Store, clock: { set(ms: number): void }) => Promise<void>) {
    let t = START;
    const store = open(() => t);
    try {
      await body(store, { set: (ms) => void (t = START + ms) });
    } finally {
      await (store as { close?: () => Promise<void> }).close?.();
    }
  }

  test(`${kind}: a lease is another owner's at the millisecond it lapses, and no longer its holder's`, () =>
    withStore(async (store, clock) => {
      assert.equal(await store.acquireLease('poll:t', 'a', 1_000), true);
      clock.set(999);
      assert.equal(await store.acquireLease('poll:t', 'b', 1_000), false, 'still held a millisecond before');
      clock.set(1_000);
      assert.equal(await store.renewLease('poll:t', 'a', 1_000), false, 'a lapsed lease cannot be renewed');
      assert.deepEqual(await store.renewLeases(['poll:t'], 'a', 1_000), []);
      assert.equal(await store.releaseLease('poll:t', 'a'), false, 'nor released by its old holder');
      assert.equal(await store.acquireLease('poll:t', 'b', 1_000), true);
      clock.set(1_500);
      assert.equal(await store.releaseLease('poll:t', 'a'), false, 'the old holder cannot release the new one');
      assert.equal(await store.releaseLease('poll:t', 'b'), true);
    }));

  test(`${kind}: a lapsed lease is not released, even by the owner it lapsed on`, () =>
    withStore(async (store, clock) => {
      await store.acquireLease('poll:u', 'a', 1_000);
      clock.set(5_000);
      assert.equal(await store.releaseLease('poll:u', 'a'), false);
    }));

  test(`${kind}: a rate window restarts at its very end, and its Retry-After counts down to it`, () =>
    withStore(async (store, clock) => {
      assert.equal((await store.consumeRateLimit('create:a', 1, 10_000)).allowed, true);
      clock.set(4_000);
      assert.deepEqual(await store.consumeRateLimit('create:a', 1, 10_000), { allowed: false, count: 1, retryAfterMs: 6_000 });
      clock.set(9_999);
      assert.equal((await store.consumeRateLimit('create:a', 1, 10_000)).retryAfterMs, 1);
      clock.set(10_000);
      assert.deepEqual(await store.consumeRateLimit('create:a', 1, 10_000), { allowed: true, count: 1, retryAfterMs: 10_000 });
    }));

  test(`${kind}: a window restarts at its end even when a longer window elsewhere puts the cleanup off`, () =>
    withStore(async (store, clock) => {
      await store.consumeRateLimit('export:z', 1, 1_000_000);
      assert.equal((await store.consumeRateLimit('create:a', 1, 10_000)).allowed, true);
      clock.set(10_000);
      assert.deepEqual(await store.consumeRateLimit('create:a', 1, 10_000), { allowed: true, count: 1, retryAfterMs: 10_000 });
      clock.set(19_999);
      assert.deepEqual(await store.consumeRateLimit('create:a', 1, 10_000), { allowed: false, count: 1, retryAfterMs: 1 });
    }));

  test(`${kind}: cleaning up ended windows and lapsed leases never touches live ones`, () =>
    withStore(async (store, clock) => {
      // b's window and lease start half-way through a's, so they are live when a's end and the cleanup runs.
      await store.consumeRateLimit('create:a', 1, 10_000);
      await store.acquireLease('poll:a', 'x', 10_000);
      clock.set(5_000);
      await store.consumeRateLimit('create:b', 1, 10_000);
      await store.acquireLease('poll:b', 'x', 10_000);
      clock.set(10_000);
      assert.equal((await store.consumeRateLimit('create:a', 1, 10_000)).allowed, true);
      clock.set(12_000);
      assert.equal((await store.consumeRateLimit('create:c', 1, 10_000)).allowed, true);
      assert.deepEqual(await store.consumeRateLimit('create:b', 1, 10_000), { allowed: false, count: 1, retryAfterMs: 3_000 });
      assert.equal(await store.acquireLease('poll:b', 'y', 10_000), false);
      assert.equal(await store.renewLease('poll:b', 'x', 10_000), true);
    }));

  test(`${kind}: retention deletes only what finished or was created strictly before its cutoff`, () =>
    withStore(async (store) => {
      const create = (token: string, at: number) =>
        store.create({ tokenOnboarding: token, status: 'IN_PROCESS', createdAt: iso(at), accessKeyHash: 'h'.repeat(64) });
      await create('old', START);
      await create('finished', START + 1_000);
      await store.applyStatus('finished', { status: 'APPROVED', source: 'webhook', at: iso(START + 2_000) });
      assert.equal(
        await store.expire({ finishedBefore: new Date(START + 2_000), createdBefore: new Date(START) }),
        0,
        'cutoffs equal to the times keep both',
      );
      assert.equal(await store.expire({ finishedBefore: new Date(START + 2_001), createdBefore: new Date(START) }), 1);
      assert.equal(await store.get('finished'), null);
      assert.equal(await store.expire({ finishedBefore: new Date(START), createdBefore: new Date(START + 1) }), 1);
      assert.equal(await store.get('old'), null);
    }));

  test(`${kind}: a change keeps the externalId it does not carry; a repeat fills a missing one, another status does not`, () =>
    withStore(async (store) => {
      const base = { status: 'IN_PROCESS' as const, createdAt: iso(START), accessKeyHash: 'h'.repeat(64) };
      await store.create({ ...base, tokenOnboarding: 'kept', externalId: 'ext-creation' });
      await store.applyStatus('kept', { status: 'APPROVED', source: 'webhook' });
      assert.equal((await store.get('kept'))!.externalId, 'ext-creation');

      await store.create({ ...base, tokenOnboarding: 'filled' });
      await store.applyStatus('filled', { status: 'REFUSED', source: 'poll' });
      const repeat = await store.applyStatus('filled', { status: 'REFUSED', source: 'webhook', externalId: 'ext-late' });
      assert.equal(repeat!.changed, false);
      assert.equal((await store.get('filled'))!.externalId, 'ext-late');

      await store.create({ ...base, tokenOnboarding: 'other' });
      await store.applyStatus('other', { status: 'APPROVED', source: 'poll' });
      await store.applyStatus('other', { status: 'REFUSED', source: 'webhook', externalId: 'ext-other' });
      const other = (await store.get('other'))!;
      assert.equal(other.status, 'APPROVED');
      assert.equal('externalId' in other, false, 'a message about another status fills nothing');
    }));
}

test('status rules: a repeat that writes nothing says so; the fill of an externalId says it wrote', () => {
  const record: OnboardingRecord = {
    tokenOnboarding: 't',
    status: 'APPROVED',
    createdAt: iso(START),
    updatedAt: iso(START),
    accessKeyHash: 'h',
    history: [{ status: 'APPROVED', at: iso(START), source: 'poll' }],
    finishedAt: iso(START),
  };
  assert.deepEqual(applyStatusRules(record, { status: 'APPROVED', source: 'webhook' }, iso(START + 1)), {
    record,
    changed: false,
    touched: false,
  });
  assert.deepEqual(applyStatusRules(record, { status: 'REFUSED', source: 'webhook', externalId: 'e' }, iso(START + 1)), {
    record,
    changed: false,
    touched: false,
  });
  const filled = applyStatusRules(record, { status: 'APPROVED', source: 'webhook', externalId: 'e' }, iso(START + 1));
  assert.deepEqual(filled, { record: { ...record, externalId: 'e' }, changed: false, touched: true });
  assert.equal('externalId' in record, false, 'the current record is not edited');
});
