/**
 * The token lifecycle on a clock the test moves (docs/upstream-api.md, rule 3): one token reused
 * until shortly before `expires_in`, renewed early enough that no call goes out with a token
 * about to expire, one renewal in flight however many calls wait, and a 401 renewing only the
 * token that failed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AccessTokens, type IssuedToken } from '../src/upstream/access-tokens.js';

/** AccessTokens on a manual clock, with a generator that counts and can be held open. */
function harness(expiresIn: number, options: { renewEarlyMs?: number } = {}) {
  let now = 1_700_000_000_000;
  let issued = 0;
  let hold: Promise<void> | undefined;
  const tokens = new AccessTokens({
    ...options,
    now: () => now,
    generate: async (): Promise<IssuedToken> => {
      const n = ++issued;
      await hold;
      return { accessToken: `token-${n}`, expiresIn };
    },
  });
  return {
    tokens,
    issued: () => issued,
    advance: (ms: number) => void (now += ms),
    holdGeneration: () => {
      let release!: () => void;
      hold = new Promise((r) => (release = r));
      return () => {
        hold = undefined;
        release();
      };
    },
  };
}

test('a 300 s token is reused until 30 s before it expires, then renewed before any call can use it late', async () => {
  const h = harness(300);
  assert.equal(await h.tokens.get(), 'token-1');
  h.advance(269_999);
  assert.equal(await h.tokens.get(), 'token-1', 'still well within its life');
  assert.equal(h.issued(), 1);
  h.advance(1);
  assert.equal(await h.tokens.get(), 'token-2', 'renewed 30 s before expires_in');
  assert.equal(h.issued(), 2);
  // The new token's life counts from its own issue.
  h.advance(269_999);
  assert.equal(await h.tokens.get(), 'token-2');
  h.advance(1);
  assert.equal(await h.tokens.get(), 'token-3');
});

test('a short lifetime renews a tenth of it early; renewEarlyMs sets the margin', async () => {
  const short = harness(60);
  await short.tokens.get();
  short.advance(53_999);
  assert.equal(await short.tokens.get(), 'token-1');
  short.advance(1);
  assert.equal(await short.tokens.get(), 'token-2', 'renewed 6 s (a tenth of 60 s) before expiry');

  const custom = harness(300, { renewEarlyMs: 5_000 });
  await custom.tokens.get();
  custom.advance(294_999);
  assert.equal(await custom.tokens.get(), 'token-1');
  custom.advance(1);
  assert.equal(await custom.tokens.get(), 'token-2', 'renewed 5 s before expiry');
});

test('the lifetime counts from the request, so a slow token answer does not stretch it', async () => {
  const h = harness(300);
  const release = h.holdGeneration();
  const pending = h.tokens.get();
  h.advance(10_000);
  release();
  assert.equal(await pending, 'token-1');
  h.advance(259_999);
  assert.equal(await h.tokens.get(), 'token-1');
  h.advance(1);
  assert.equal(await h.tokens.get(), 'token-2', '270 s after the request, not after the answer');
});

test('calls that find the token due for renewal share one renewal', async () => {
  const h = harness(300);
  await h.tokens.get();
  h.advance(280_000);
  const release = h.holdGeneration();
  const waiting = Array.from({ length: 10 }, () => h.tokens.get());
  release();
  assert.deepEqual(new Set(await Promise.all(waiting)), new Set(['token-2']));
  assert.equal(h.issued(), 2);
});

test('a 401 renews the failed token once; a caller holding an already replaced token gets the replacement', async () => {
  const h = harness(300);
  const first = await h.tokens.get();
  const renewed = await Promise.all([h.tokens.afterUnauthorized(first), h.tokens.afterUnauthorized(first)]);
  assert.deepEqual(renewed, ['token-2', 'token-2']);
  assert.equal(await h.tokens.afterUnauthorized(first), 'token-2', 'a late 401 with the old token does not renew again');
  assert.equal(h.issued(), 2);
  assert.equal(await h.tokens.afterUnauthorized('token-2'), 'token-3');
});
