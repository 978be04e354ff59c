/** Creations at once per client (transport/per-key-limit.ts): all keys or none, a release counts once, 0 is off. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PerKeyLimit } from '../src/transport/per-key-limit.js';

test('at most `limit` under each key; a refusal takes nothing; a release counts once and forgets an empty key', () => {
  const limit = new PerKeyLimit(2);
  const a1 = limit.enter(['address:a'])!;
  const a2 = limit.enter(['address:a', 'session:s'])!;
  assert.equal(limit.enter(['address:a']), null);
  // Refused on one key: the other is not counted either.
  assert.equal(limit.enter(['session:s', 'address:a']), null);
  assert.equal(limit.count('session:s'), 1);
  assert.ok(limit.enter(['address:b']));
  a1();
  a1();
  assert.equal(limit.count('address:a'), 1, 'a second release of the same place does nothing');
  a2();
  assert.equal(limit.count('address:a'), 0);
  assert.equal(limit.count('session:s'), 0);
});

test('a limit of 0 refuses nothing and counts nothing', () => {
  const off = new PerKeyLimit(0);
  for (let i = 0; i < 100; i++) assert.ok(off.enter(['address:a']));
  assert.equal(off.count('address:a'), 0);
});
