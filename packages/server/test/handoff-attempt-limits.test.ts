/**
 * The hand-off's attempt limits on their own (handoff/attempt-limits.ts) and the kind-prefixed
 * keys codes and links are stored under (handoff/handoff-rules.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { countCodeAttempt, countOffer } from '../src/handoff/attempt-limits.js';
import { handoffKeyHash } from '../src/handoff/handoff-rules.js';
import { MemoryStore } from '../src/store/memory-store.js';
import { DomainError } from '../src/errors/domain-error.js';

const clocked = () => {
  let now = Date.parse('2030-01-01T00:00:00.000Z');
  return { store: new MemoryStore({ now: () => now }), advance: (ms: number) => void (now += ms) };
};

test('code attempts: 10 per address a minute, and the budget of all addresses; an address past its own limit spends none of the budget', async () => {
  const { store, advance } = clocked();
  const budget = 30;
  for (let i = 0; i < 10; i++) assert.equal(await countCodeAttempt(store, '198.51.100.1', budget), null);
  for (let i = 0; i < 5; i++) {
    const refused = await countCodeAttempt(store, '198.51.100.1', budget);
    assert.equal(refused?.limit, 'address');
    assert.equal(refused?.error.retryAfterS, 60);
  }
  // Twenty more from two other addresses fill the budget of thirty exactly.
  for (const address of ['198.51.100.2', '198.51.100.3'])
    for (let i = 0; i < 10; i++) assert.equal(await countCodeAttempt(store, address, budget), null, address);
  advance(20_000);
  const over = await countCodeAttempt(store, '198.51.100.4', budget);
  assert.equal(over?.limit, 'all addresses');
  assert.ok(over?.error instanceof DomainError && over.error.code === 'rate_limited');
  assert.equal(over?.error.retryAfterS, 40, 'the budget window ends a minute after its first attempt');
  advance(40_000);
  assert.equal(await countCodeAttempt(store, '198.51.100.4', budget), null, 'a new minute');
});

test("offers: five per session within a link's life (10 minutes), then 429 until the window ends; sessions apart", async () => {
  const { store, advance } = clocked();
  for (let i = 0; i < 5; i++) await countOffer(store, 'ses_a', 5);
  await assert.rejects(
    countOffer(store, 'ses_a', 5),
    (e: unknown) => e instanceof DomainError && e.code === 'rate_limited' && e.retryAfterS === 600,
  );
  await countOffer(store, 'ses_b', 5);
  advance(600_000);
  await countOffer(store, 'ses_a', 5);
});

test('hand-off keys: the SHA-256 of kind and value, so one value is a different key as a link and as a code', () => {
  const sha = (s: string) => createHash('sha256').update(s).digest('hex');
  assert.equal(handoffKeyHash('code', 'K7MQ4TXA'), sha('code:K7MQ4TXA'));
  assert.equal(handoffKeyHash('link', 'K7MQ4TXA'), sha('link:K7MQ4TXA'));
  assert.notEqual(handoffKeyHash('code', 'K7MQ4TXA'), handoffKeyHash('link', 'K7MQ4TXA'));
  assert.notEqual(handoffKeyHash('code', 'K7MQ4TXA'), sha('K7MQ4TXA'), 'never the bare hash');
});
