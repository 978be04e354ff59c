/**
 * Every secret check of the companion (page access key, webhook key, admin key) goes through
 * auth/access-key.ts, and these prove its comparisons are the constant-time one: node:crypto's
 * `timingSafeEqual` is watched, and each check must call it once on two 32-byte digests, whether
 * the presented value is right, wrong, of another length or absent. An `===` in its place answers
 * the same booleans but fails here (the lint, scripts/check-secret-compare.ts, catches it too).
 */
import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { hashSecret, keyMatches, newAccessKey, secretEquals } from '../src/auth/access-key.js';

/** Runs `fn` with timingSafeEqual watched; returns its result and the calls' argument lengths. */
function watched<T>(fn: () => T): { result: T; calls: number[][] } {
  const spy = mock.method(crypto, 'timingSafeEqual');
  syncBuiltinESMExports();
  try {
    const result = fn();
    return { result, calls: spy.mock.calls.map((c) => (c.arguments as unknown as Uint8Array[]).map((b) => b.byteLength)) };
  } finally {
    spy.mock.restore();
    syncBuiltinESMExports();
  }
}

test('keyMatches: one constant-time comparison of two SHA-256 digests, whatever is presented', () => {
  const key = newAccessKey();
  const stored = hashSecret(key);
  const cases: [string | undefined, string | undefined, boolean][] = [
    [key, stored, true],
    [`${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`, stored, false],
    ['short', stored, false],
    [undefined, stored, false],
    [key, undefined, false],
    [undefined, undefined, false],
  ];
  for (const [presented, storedHash, expected] of cases) {
    const { result, calls } = watched(() => keyMatches(presented, storedHash));
    assert.equal(result, expected, `${presented} vs ${storedHash}`);
    assert.deepEqual(calls, [[32, 32]], `timingSafeEqual decides (${presented} vs ${storedHash})`);
  }
});

test('secretEquals (webhook and admin keys): one constant-time comparison of two digests, absent key included', () => {
  const secret = 'test-webhook-key-0123456789';
  const cases: [string | undefined, boolean][] = [
    [secret, true],
    [`${secret}x`, false],
    ['', false],
    [undefined, false],
    [secret.toUpperCase(), false],
  ];
  for (const [presented, expected] of cases) {
    const { result, calls } = watched(() => secretEquals(presented, secret));
    assert.equal(result, expected, String(presented));
    assert.deepEqual(calls, [[32, 32]], `timingSafeEqual decides (${presented})`);
  }
});

test('newAccessKey: 32 random bytes as base64url, never the same twice, across the pool it is drawn from', () => {
  const keys = new Set<string>();
  for (let i = 0; i < 300; i++) {
    const key = newAccessKey();
    assert.match(key, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(Buffer.from(key, 'base64url').length, 32);
    keys.add(key);
  }
  assert.equal(keys.size, 300);
  assert.ok(![...keys].includes('A'.repeat(43)), 'no key made of wiped bytes');
});

test('hashSecret: the hex SHA-256 of the UTF-8 text, the same whichever way this Node computes it (stored hashes outlive upgrades)', () => {
  for (const value of ['', 'a', 'chave-de-acesso', 'ação ✓ 𝄞', 'x'.repeat(10_000)]) {
    assert.equal(hashSecret(value), crypto.createHash('sha256').update(Buffer.from(value, 'utf8')).digest('hex'));
  }
  assert.equal(hashSecret('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
});
