/**
 * `GET /v1/health` and `GET /v1/ready` without authentication: ready names the failing check
 * (the store, or an upstream access token that cannot be had), and its upstream check is reused
 * for a while, so calling it often sends the upstream's token route one request per period.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStore, silentLogger, StoreUnavailableError } from '@onboarding-kit/server';
import { UpstreamReadiness } from '../src/health/upstream-readiness.js';
import { testCompanion } from './helpers/companion.js';
import { startFakeUpstream } from './helpers/fake-upstream.js';

const up = await startFakeUpstream();
after(() => up.close());

test('ready: 200 with both checks ok; the token fetched once, then held', async () => {
  const { app } = testCompanion(up);
  const before = up.tokensIssued();
  for (let i = 0; i < 5; i++) {
    const res = await app.request('/v1/ready');
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: 'ready', checks: { store: 'ok', upstream: 'ok' } });
    assert.equal(res.headers.get('cache-control'), 'no-store');
  }
  assert.equal(up.tokensIssued() - before, 1);
  await app.close();
});

test('ready: 503 naming the upstream when no token can be had, and 50 calls send one token request', async () => {
  const { app, logs } = testCompanion(up, { upstream: { retries: 0, retryDelayMs: 5 } });
  up.override('/api/token-generate', () => ({ status: 401, json: { error: 'invalid_client' } }));
  try {
    const before = up.count('/api/token-generate');
    const answers = await Promise.all(Array.from({ length: 50 }, () => app.request('/v1/ready')));
    for (const res of answers) {
      assert.equal(res.status, 503);
      assert.deepEqual(await res.json(), { status: 'unavailable', checks: { store: 'ok', upstream: 'failed' } });
    }
    assert.equal(up.count('/api/token-generate') - before, 1, 'one check for all, its result reused');
    assert.ok(logs.some((l) => l.includes('ready: no upstream access token')));
    // Health does not depend on the upstream.
    assert.equal((await app.request('/v1/health')).status, 200);
  } finally {
    up.override('/api/token-generate', undefined);
    await app.close();
  }
});

test('ready: 503 naming the store when it does not answer; both routes 503 while stopping', async () => {
  const store = new MemoryStore();
  const { app } = testCompanion(up, { store });
  const ping = store.ping;
  store.ping = async () => {
    throw new StoreUnavailableError('down');
  };
  const down = await app.request('/v1/ready');
  assert.equal(down.status, 503);
  assert.deepEqual(await down.json(), { status: 'unavailable', checks: { store: 'unavailable', upstream: 'ok' } });
  store.ping = ping;
  assert.equal((await app.request('/v1/ready')).status, 200);
  const closing = app.close();
  const stopping = await app.request('/v1/ready');
  assert.equal(stopping.status, 503);
  assert.equal(((await stopping.json()) as { status: string }).status, 'stopping');
  assert.equal((await app.request('/v1/health')).status, 503);
  await closing;
});

test('the upstream check: reused for cacheMs, checked again after; a slow one answers timeout and goes on', async () => {
  let now = 0;
  let calls = 0;
  let answer: () => Promise<string> = async () => 'token';
  const readiness = new UpstreamReadiness({
    upstream: {
      accessToken: () => {
        calls++;
        return answer();
      },
    },
    cacheMs: 10_000,
    waitMs: 50,
    logger: silentLogger,
    now: () => now,
  });
  assert.equal(await readiness.check(), 'ok');
  now = 9_999;
  assert.equal(await readiness.check(), 'ok');
  assert.equal(calls, 1);
  now = 10_000;
  answer = () => Promise.reject(new Error('refused'));
  assert.equal(await readiness.check(), 'failed');
  assert.equal(calls, 2);
  now = 20_000;
  let release!: (v: string) => void;
  answer = () => new Promise((resolve) => (release = resolve));
  assert.equal(await readiness.check(), 'timeout');
  assert.equal(await readiness.check(), 'timeout', 'joins the check under way');
  assert.equal(calls, 3);
  release('token');
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(await readiness.check(), 'ok');
  assert.equal(calls, 3);
  assert.equal(await new UpstreamReadiness({ upstream: {}, cacheMs: 1, waitMs: 1, logger: silentLogger }).check(), 'unchecked');
});
