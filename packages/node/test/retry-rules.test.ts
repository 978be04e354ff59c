/** The retry policy as pure functions (src/retry-rules.ts): which answers repeat, Retry-After, the backoff. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASE_DELAY_MS,
  MAX_BACKOFF_MS,
  parseRetryAfter,
  retriesAnswer,
  retriesConnectionFailure,
  retryDelayMs,
} from '../src/retry-rules.js';

test('a safe call repeats 429 and every 5xx; an unsafe one only 429 and 503; 409 in progress always; other 4xx never', () => {
  for (const status of [429, 500, 502, 503, 504, 599]) assert.equal(retriesAnswer('safe', status, undefined), true, String(status));
  for (const status of [429, 503]) assert.equal(retriesAnswer('unsafe', status, undefined), true, String(status));
  for (const status of [500, 502, 504]) assert.equal(retriesAnswer('unsafe', status, 'upstream_error'), false, String(status));
  for (const policy of ['safe', 'unsafe'] as const) {
    assert.equal(retriesAnswer(policy, 409, 'idempotency_in_progress'), true);
    for (const status of [400, 401, 403, 404, 409, 410, 413, 422]) assert.equal(retriesAnswer(policy, status, 'x'), false, String(status));
  }
  assert.equal(retriesConnectionFailure('safe'), true);
  assert.equal(retriesConnectionFailure('unsafe'), false);
});

test('Retry-After: delta-seconds or an HTTP date; anything else ignored', () => {
  const now = Date.parse('2026-11-23T21:00:00Z');
  assert.equal(parseRetryAfter('0', now), 0);
  assert.equal(parseRetryAfter(' 5 ', now), 5000);
  assert.equal(parseRetryAfter('Mon, 23 Nov 2026 21:00:07 GMT', now), 7000);
  assert.equal(parseRetryAfter('Mon, 23 Nov 2026 20:59:00 GMT', now), 0, 'a date past is now');
  for (const bad of [null, undefined, '', '-1', '1.5', 'soon', '12:00']) assert.equal(parseRetryAfter(bad, now), undefined, String(bad));
});

test('the wait: Retry-After plus up to 10 %, else exponential with equal jitter, capped', () => {
  assert.equal(retryDelayMs(0, 2000, 0), 2000);
  assert.equal(retryDelayMs(3, 2000, 0.999), 2200);
  assert.equal(retryDelayMs(0, undefined, 0), BASE_DELAY_MS / 2);
  assert.equal(retryDelayMs(0, undefined, 1), BASE_DELAY_MS);
  assert.equal(retryDelayMs(1, undefined, 0), BASE_DELAY_MS);
  assert.equal(retryDelayMs(2, undefined, 0.5), Math.round(BASE_DELAY_MS * 4 * 0.75));
  for (let retry = 0; retry < 30; retry++) {
    const d = retryDelayMs(retry, undefined, Math.random());
    assert.ok(d >= Math.min(MAX_BACKOFF_MS, BASE_DELAY_MS * 2 ** retry) / 2 && d <= MAX_BACKOFF_MS, `${retry}: ${d}`);
  }
});
