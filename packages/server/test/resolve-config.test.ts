/**
 * `resolveConfig()`: the options checked and every default applied in one place; the durations of
 * config/defaults.ts are the ones the docs give.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_IMAGE_MAX_BYTES } from '@onboarding-kit/contract';
import { CompanionConfigError } from '@onboarding-kit/server';
import {
  COMPANION_DEFAULTS,
  HOUR_MS,
  IDEMPOTENCY_TTL_MS,
  MAX_AGE_MS,
  NOTIFY_GIVE_UP_MS,
  RETENTION_MS,
  SESSION_MAX_AGE_MS,
} from '../src/config/defaults.js';
import { resolveConfig, storeRetention } from '../src/config/resolve-config.js';
import { silentLogger } from '../src/logger.js';

const base = {
  baseUrl: 'http://127.0.0.1:1',
  client: 'c',
  secret: 'upstream-secret',
  webhookKey: 'webhook-key-of-at-least-32-characters',
  logger: silentLogger,
};
const API_KEY = 'k'.repeat(32);

test('the durations: 24 h retention and idempotency, 48 h for any onboarding, 96 h for a session, 72 h for a notification', () => {
  assert.equal(HOUR_MS, 3_600_000);
  assert.equal(RETENTION_MS, 86_400_000);
  assert.equal(IDEMPOTENCY_TTL_MS, 86_400_000);
  assert.equal(MAX_AGE_MS, 172_800_000);
  assert.equal(SESSION_MAX_AGE_MS, 345_600_000);
  assert.equal(NOTIFY_GIVE_UP_MS, 259_200_000);
});

test('an option left out gets its default', () => {
  const c = resolveConfig(base);
  assert.equal(c.environment, 'test');
  assert.equal(c.sessionsRequired, false);
  assert.equal(c.retentionMs, RETENTION_MS);
  assert.equal(c.maxAgeMs, MAX_AGE_MS);
  assert.deepEqual(c.poll, { timings: { maxDurationMs: MAX_AGE_MS }, takeOver: true });
  assert.deepEqual(c.sse, { keepAliveMs: 15_000, retryMs: 3_000 });
  assert.equal(c.shutdownGraceMs, 16_000);
  assert.equal(c.creations.concurrent, COMPANION_DEFAULTS.creationsConcurrent());
  assert.ok(c.creations.concurrent >= 4);
  assert.equal(c.creations.waiting, 16 * c.creations.concurrent);
  assert.equal(c.creations.bodyTimeoutMs, COMPANION_DEFAULTS.creationBodyTimeoutMs);
  assert.equal(c.creations.minBytesPerS, COMPANION_DEFAULTS.creationBodyMinBytesPerS);
  assert.equal(c.creations.graceMs, COMPANION_DEFAULTS.creationBodyGraceMs);
  assert.equal(c.creations.perClient, COMPANION_DEFAULTS.creationsPerClient);
  assert.equal(c.imageMaxBytes, DEFAULT_IMAGE_MAX_BYTES);
  assert.deepEqual(c.documentFileTypes, { documentFront: 'OTHER', documentBack: 'OTHER', selfie: 'OTHER' });
  assert.equal(c.rateLimit, 30);
  // No trusted proxies: the socket's address, whatever a client writes in X-Forwarded-For.
  const fromSocket = {
    env: { incoming: { socket: { remoteAddress: '::ffff:127.0.0.2' } } },
    req: { raw: new Request('http://127.0.0.1/'), header: (name: string) => (name === 'x-forwarded-for' ? '198.51.100.1' : undefined) },
  };
  assert.equal(c.clientAddress(fromSocket as never), '127.0.0.2');
  assert.equal(c.handoffCodeAttemptsPerMinute, 50);
  assert.equal(c.reportPdf, false);
  assert.deepEqual(c.allowedOrigins, []);
  assert.deepEqual(c.apiKeys, []);
  assert.deepEqual(c.brand, {});
  assert.equal(c.store, undefined);
  assert.equal(c.timers, undefined);
  assert.deepEqual(c.secrets, ['upstream-secret', 'webhook-key-of-at-least-32-characters']);
  assert.deepEqual('options' in c.upstream && c.upstream.options, { baseUrl: base.baseUrl, client: 'c', secret: 'upstream-secret' });
});

test('an option given wins, and what derives from it follows', () => {
  const c = resolveConfig({
    ...base,
    environment: 'production',
    apiKeys: [API_KEY],
    adminKey: 'a'.repeat(16),
    notify: { url: 'https://hooks.example/n', secret: ['s'.repeat(32), 't'.repeat(32)] },
    maxAgeMs: 5_000,
    poll: { leaseMs: 200 },
    resumePolling: false,
    upstream: { timeoutMs: 2_000 },
    creations: { concurrent: 2, graceMs: 500 },
    sse: { retryMs: 10 },
    documentFileTypes: { selfie: 'SELFIE' },
  });
  assert.equal(c.sessionsRequired, true);
  assert.deepEqual(c.poll, { timings: { maxDurationMs: 5_000, leaseMs: 200 }, takeOver: false });
  assert.equal(c.shutdownGraceMs, 3_000);
  assert.deepEqual(c.creations, {
    concurrent: 2,
    waiting: 32,
    bodyTimeoutMs: COMPANION_DEFAULTS.creationBodyTimeoutMs,
    minBytesPerS: COMPANION_DEFAULTS.creationBodyMinBytesPerS,
    graceMs: 500,
    perClient: COMPANION_DEFAULTS.creationsPerClient,
  });
  assert.deepEqual(c.sse, { keepAliveMs: 15_000, retryMs: 10 });
  assert.equal(c.documentFileTypes.selfie, 'SELFIE');
  assert.deepEqual(c.secrets, [
    'upstream-secret',
    'webhook-key-of-at-least-32-characters',
    'a'.repeat(16),
    API_KEY,
    's'.repeat(32),
    't'.repeat(32),
  ]);
  assert.equal(resolveConfig({ ...base, environment: 'production', apiKeys: [API_KEY], sessions: 'optional' }).sessionsRequired, false);
  assert.equal(resolveConfig({ ...base, shutdownGraceMs: 0 }).shutdownGraceMs, 0);
});

test('bad options stop the resolution with every problem named', () => {
  assert.throws(
    () => resolveConfig({ ...base, baseUrl: 'ftp://x', adminKey: 'short', rateLimit: -1 }),
    (e: unknown) => {
      assert.ok(e instanceof CompanionConfigError);
      assert.equal(
        e.message,
        'Invalid companion options: baseUrl must be an http(s) URL; adminKey must have at least 16 characters; rateLimit must be a whole number, 0 for off.',
      );
      return true;
    },
  );
  assert.throws(
    () => resolveConfig({ ...base, environment: 'production' }),
    /sessions are required \(the default in production\) but no apiKeys are set to open them/,
  );
  assert.throws(
    () => resolveConfig({ ...base, poll: { leaseMs: 50 }, handoff: { ttlMs: 10 } }),
    /poll\.leaseMs must be from 100 to 30000; handoff\.ttlMs must be a whole number from 1000 to 600000/,
  );
});

test('a store opened before its companion gets the retention the companion resolves', () => {
  assert.deepEqual(storeRetention({}), { finishedMs: RETENTION_MS, maxAgeMs: MAX_AGE_MS });
  const given = { retentionMs: 3_600_000, maxAgeMs: 7_200_000 };
  const c = resolveConfig({ ...base, ...given });
  assert.deepEqual(storeRetention(given), { finishedMs: c.retentionMs, maxAgeMs: c.maxAgeMs });
  assert.deepEqual(storeRetention(given), { finishedMs: 3_600_000, maxAgeMs: 7_200_000 });
});

test('API keys: a key alone gets every scope in test and sessions only in production; given scopes stay; bad ones are named by position', () => {
  const scoped = { key: 'q'.repeat(32), scopes: ['queries', 'reports'] as const };
  assert.deepEqual(resolveConfig({ ...base, apiKeys: [API_KEY, scoped] }).apiKeys, [
    { key: API_KEY, scopes: ['sessions', 'queries', 'reports', 'admin'] },
    { key: scoped.key, scopes: ['queries', 'reports'] },
  ]);
  assert.deepEqual(resolveConfig({ ...base, environment: 'production', apiKeys: [API_KEY, scoped] }).apiKeys, [
    { key: API_KEY, scopes: ['sessions'] },
    { key: scoped.key, scopes: ['queries', 'reports'] },
  ]);
  assert.deepEqual(COMPANION_DEFAULTS.apiKeyScopes('production'), ['sessions']);
  assert.throws(
    () => resolveConfig({ ...base, apiKeys: [API_KEY, { key: scoped.key, scopes: ['billing' as never] }] }),
    (e: unknown) =>
      e instanceof CompanionConfigError && /API key #2: unknown scope "billing"/.test(e.message) && !e.message.includes(scoped.key),
  );
  assert.throws(() => resolveConfig({ ...base, apiKeys: [{ key: scoped.key, scopes: [] }] }), /API key #1: at least one scope/);
});

test('production: the notify and public URLs must be https unless on a loopback host; test takes http', () => {
  const notify = (url: string) => ({ url, secret: 's'.repeat(32) });
  const production = { ...base, environment: 'production' as const, apiKeys: [API_KEY] };
  assert.throws(
    () => resolveConfig({ ...production, notify: notify('http://backend.example/n') }),
    /notify\.url must be https in production/,
  );
  assert.throws(() => resolveConfig({ ...production, publicUrl: 'http://kyc.example' }), /publicUrl must be https in production/);
  for (const url of ['https://backend.example/n', 'http://127.0.0.1:9/n', 'http://localhost/n', 'http://[::1]/n']) {
    assert.equal(resolveConfig({ ...production, notify: notify(url), publicUrl: url }).publicUrl, url, url);
  }
  assert.equal(resolveConfig({ ...base, publicUrl: 'http://kyc.example' }).publicUrl, 'http://kyc.example');
});
