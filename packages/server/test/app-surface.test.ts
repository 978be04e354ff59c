import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { API_PREFIX } from '@onboarding-kit/contract';
import * as entry from '@onboarding-kit/server';
import {
  createCompanion,
  CompanionConfigError,
  type ApiKeyInput,
  type ApiKeyScope,
  type ApplyResult,
  type ChangeListener,
  type Clock,
  type CompanionApp,
  type CompanionEnv,
  type CompanionErrorDetails,
  type CompanionHandle,
  type CompanionOptions,
  type CreateStoreOptions,
  type DataKey,
  type Environment,
  type EvidenceHistoryEntry,
  type EvidenceInput,
  type EvidenceManifest,
  type EvidenceOptions,
  type HistorySource,
  type JsonLoggerOptions,
  type LogFields,
  type ListeningServer,
  type LogLevel,
  type Logger,
  type ManifestFile,
  type ManifestGap,
  type MemoryStoreOptions,
  type OnboardingRecord,
  type PollTimings,
  type RateLimitDecision,
  type RedisStoreOptions,
  type ServeOptions,
  type ServedCompanion,
  type ServiceFields,
  type SignalOptions,
  type SqliteStoreOptions,
  type StatusEvent,
  type StatusSource,
  type StatusUpdate,
  type Store,
  type StoreKind,
  type SupportRequest,
  type UpstreamClient,
  type UpstreamClientOptions,
  type UpstreamErrorKind,
  type RequireApiKeyOptions,
  type VerifyNotificationOptions,
  type BackendState,
  type SessionRecord,
  type SessionClaim,
  type SessionSecretKind,
  type IdempotencyState,
  type OutboxEntry,
  type OutboxState,
  type OutboxUpdate,
  type BackendPurgeCutoffs,
  type Brand,
  type BrandField,
  type BrandInput,
  type BrandLabel,
  type BrandLogo,
} from '@onboarding-kit/server';
import { createBody } from './helpers/fixtures.js';
import { created, WEBHOOK_KEY } from './helpers/companion.js';
import { ManualClock } from '@onboarding-kit/testing/manual-clock';
import { eventually } from '@onboarding-kit/testing/deadline';
import { body as sandboxBody, companionOn, IT_CLIENT, IT_SECRET, startStack, type Stack } from '@onboarding-kit/testing/stack';

// The upstream is the sandbox; its webhooks go to the stack's own companion, and polling starts
// after a minute unless a test says otherwise, so each test decides what its companion learns.
let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(() => stack.close());
const testCompanion = (over: Partial<CompanionOptions> = {}) =>
  companionOn(stack, { webhookKey: WEBHOOK_KEY, poll: { firstDelayMs: 60_000 }, upstream: { retryDelayMs: 5 }, ...over });

/** The values the package entry exports: what integrators may rely on, and nothing internal. */
const PUBLIC_VALUES = [
  'API_KEY_MIN_LENGTH',
  'API_KEY_SCOPES',
  'ApiKeyring',
  'BRAND_LOGO_MAX_BYTES',
  'BRAND_VARIABLES',
  'COMPANION_DEFAULTS',
  'CompanionConfigError',
  'CompanionError',
  'DEFAULT_STORE_URL',
  'DataKeyError',
  'EVIDENCE_FORMAT',
  'HOSTED_CSP',
  'KIT_VERSION',
  'MAX_EVIDENCE_PASSWORD_LENGTH',
  'MIN_EVIDENCE_PASSWORD_LENGTH',
  'MemoryStore',
  'OPTION_LIMITS',
  'RedisStore',
  'SANDBOX_CREDENTIALS',
  'SqliteStore',
  'StoreConfigError',
  'StoreUnavailableError',
  'UpstreamError',
  'apiKeyOf',
  'buildEvidenceArchive',
  'checkBrandFields',
  'closeOnSignals',
  'companionOptions',
  'configSecrets',
  'configuredBrand',
  'createCompanion',
  'createJsonLogger',
  'createStore',
  'createUpstreamClient',
  'isLoopbackHost',
  'listen',
  'loadBrand',
  'parseApiKeyEntry',
  'parseDataKeys',
  'parseStoreUrl',
  'plainHttpRefused',
  'readBrandFile',
  'readEnvConfig',
  'redactingLogger',
  'requireApiKey',
  'sandboxOptions',
  'serveCompanion',
  'signNotification',
  'silentLogger',
  'storeRetention',
  'verifyNotification',
];

/**
 * The public types, named once so the type check fails when one disappears from the entry. A
 * type added to the entry belongs here too (and in the README), like a value above.
 */
export type PublicTypes = [
  ApiKeyInput,
  ApiKeyScope,
  ApplyResult,
  ChangeListener,
  Clock,
  CompanionApp,
  CompanionEnv,
  CompanionErrorDetails,
  CompanionHandle,
  CompanionOptions,
  CreateStoreOptions,
  DataKey,
  Environment,
  EvidenceHistoryEntry,
  EvidenceInput,
  EvidenceManifest,
  EvidenceOptions,
  HistorySource,
  JsonLoggerOptions,
  ListeningServer,
  LogFields,
  LogLevel,
  Logger,
  ManifestFile,
  ManifestGap,
  MemoryStoreOptions,
  OnboardingRecord,
  PollTimings,
  RateLimitDecision,
  RedisStoreOptions,
  ServeOptions,
  ServedCompanion,
  ServiceFields<'SERVICE_PEP'>,
  SignalOptions,
  SqliteStoreOptions,
  StatusEvent,
  StatusSource,
  StatusUpdate,
  Store,
  StoreKind,
  SupportRequest,
  UpstreamClient,
  UpstreamClientOptions,
  UpstreamErrorKind,
  RequireApiKeyOptions,
  VerifyNotificationOptions,
  BackendState,
  SessionRecord,
  SessionClaim,
  SessionSecretKind,
  IdempotencyState,
  OutboxEntry,
  OutboxState,
  OutboxUpdate,
  BackendPurgeCutoffs,
  Brand,
  BrandField,
  BrandInput,
  BrandLabel,
  BrandLogo,
];

test('the package entry exports exactly the public surface', () => {
  assert.deepEqual(Object.keys(entry).sort(), PUBLIC_VALUES);
  // Internals that integrators never needed stay out (tests reach them under ../src).
  for (const internal of [
    'createAdminRoutes',
    'AccessTokens',
    'SERVICE_FIELDS',
    'DEFAULT_POLL_TIMINGS',
    'isUpstreamTimeout',
    'upstreamHttpStatus',
    'AdminHttpError',
    'EvidencePasswordError',
    'redact',
    'redactText',
    'peekPdf',
  ]) {
    assert.ok(!(internal in entry), `${internal} is internal`);
  }
});

test('health, unknown routes, security headers and request ids', async () => {
  const { app } = testCompanion();
  const health = await app.request(`${API_PREFIX}/health`);
  assert.equal(health.status, 200);
  assert.deepEqual(await health.json(), { status: 'ok', ok: true });
  assert.equal(health.headers.get('x-content-type-options'), 'nosniff');
  assert.ok(health.headers.get('x-frame-options'));
  assert.ok(health.headers.get('strict-transport-security'));
  assert.match(health.headers.get('x-request-id')!, /^[0-9a-f-]{36}$/);
  assert.equal((await app.request('/v1/health', { headers: { 'x-request-id': 'abc-123' } })).headers.get('x-request-id'), 'abc-123');
  for (const path of ['/nope', '/v1/nope', '/v1/onboardings/x/y/z', '/v1/admin/onboardings/x']) {
    const res = await app.request(path);
    assert.equal(res.status, 404, path);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'not_found');
  }
  await app.close();
});

test('CORS: same origin only by default; the allowlist gets headers and preflights', async () => {
  const closed = testCompanion();
  const pre = await closed.app.request('/v1/onboardings', {
    method: 'OPTIONS',
    headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' },
  });
  assert.equal(pre.headers.get('access-control-allow-origin'), null);
  const get = await closed.app.request('/v1/health', { headers: { origin: 'https://shop.example' } });
  assert.equal(get.headers.get('access-control-allow-origin'), null);
  await closed.app.close();

  const { app } = testCompanion({ allowedOrigins: ['https://shop.example'] });
  const ok = await app.request('/v1/onboardings', {
    method: 'OPTIONS',
    headers: {
      origin: 'https://shop.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    },
  });
  assert.equal(ok.status, 204);
  assert.equal(ok.headers.get('access-control-allow-origin'), 'https://shop.example');
  assert.match(ok.headers.get('access-control-allow-headers')!, /Authorization/);
  assert.match(ok.headers.get('access-control-allow-headers')!, /Idempotency-Key/, 'the element sends it on creations');
  assert.match(ok.headers.get('access-control-allow-headers')!, /Last-Event-ID/, 'the element sends it when it resumes the session events');
  assert.match(ok.headers.get('access-control-allow-methods')!, /POST/);
  assert.equal(ok.headers.get('access-control-allow-credentials'), null);
  const other = await app.request('/v1/onboardings', {
    method: 'OPTIONS',
    headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
  });
  assert.equal(other.headers.get('access-control-allow-origin'), null);
  assert.equal(other.headers.get('access-control-allow-methods'), null);
  const simple = await app.request('/v1/health', { headers: { origin: 'https://shop.example' } });
  assert.equal(simple.headers.get('access-control-allow-origin'), 'https://shop.example');
  assert.match(simple.headers.get('vary')!, /Origin/);
  const error = await app.request('/v1/onboardings/x', { headers: { origin: 'https://shop.example' } });
  assert.equal(error.status, 404);
  assert.equal(error.headers.get('access-control-allow-origin'), 'https://shop.example', 'errors are readable by allowed pages');
  await app.close();
});

test('admin routes are mounted only with an admin key', async () => {
  const adminKey = 'admin-key-0123456789abcdef';
  const { app } = testCompanion({ adminKey });
  const o = await created(app, createBody());
  const denied = await app.request(`/v1/admin/onboardings/${o.tokenOnboarding}`);
  assert.equal(denied.status, 401, 'with admin routes on, a missing key is 401 (see ADMIN.md)');
  const res = await app.request(`/v1/admin/onboardings/${o.tokenOnboarding}`, { headers: { authorization: `Bearer ${adminKey}` } });
  assert.equal(res.status, 200, await res.clone().text());
  const text = await res.text();
  assert.ok(!text.includes('accessKeyHash'), 'the admin view has no key hash');
  await app.close();
});

test('unexpected errors become 500 internal_error without details; options are checked', async () => {
  const { app, logs } = testCompanion();
  app.get('/v1/boom', () => {
    throw new Error(`secret ${IT_SECRET} leaked`);
  });
  const res = await app.request('/v1/boom');
  assert.equal(res.status, 500);
  const text = await res.text();
  assert.equal(JSON.parse(text).error.code, 'internal_error');
  assert.ok(!text.includes(IT_SECRET));
  assert.ok(logs.some((l) => l.includes('unexpected error')));
  assert.ok(!logs.some((l) => l.includes(IT_SECRET)));
  await app.close();

  const base = { baseUrl: stack.sandboxUrl, client: IT_CLIENT, secret: IT_SECRET, webhookKey: WEBHOOK_KEY };
  assert.throws(() => createCompanion({ ...base, baseUrl: 'not a url' }), CompanionConfigError);
  assert.throws(() => createCompanion({ ...base, secret: '' }), /secret is required/);
  assert.throws(() => createCompanion({ ...base, environment: 'prod' as never }), /environment/);
  assert.throws(() => createCompanion({ ...base, allowedOrigins: ['https://a.example/path'] }), /origin/);
  assert.throws(() => createCompanion({ ...base, rateLimit: -1 }), /rateLimit/);
});

test('retention: the companion deletes a finished onboarding at its first sweep past the window, on the injected clock', async () => {
  const MIN = 60_000;
  const clock = new ManualClock();
  const store = new entry.MemoryStore({ now: clock.now });
  const { app } = testCompanion({ retentionMs: 10 * MIN, store, timers: clock, poll: { firstDelayMs: 24 * 60 * MIN } });
  const o = await created(app, createBody());
  // Finished as a poll finishes it (a webhook's status counts only once the upstream's report confirms it).
  await store.applyStatus(o.tokenOnboarding, { status: 'APPROVED', source: 'poll' });
  const open = await created(app, createBody());
  // Sweeps every minute (a quarter of the window, at most 1 min); at 10 min the outcome is exactly at the cutoff.
  await clock.advance(10 * MIN);
  assert.ok(await app.store.get(o.tokenOnboarding), 'kept until its window has passed');
  await clock.advance(1 * MIN);
  assert.equal(await app.store.get(o.tokenOnboarding), null, 'finished one expired');
  assert.ok(await app.store.get(open.tokenOnboarding), 'unfinished one kept');
  await app.close();
});

test('polling resumes for a shared store: a second companion polls the onboarding the first one left IN_PROCESS', async () => {
  const first = testCompanion();
  // Images the sandbox can read, so that the approved identity is approved.
  const open = await created(first.app, sandboxBody());
  await first.app.close();
  // The sandbox decides the approved identity by itself; only the second companion's polling can tell.
  const second = testCompanion({ store: first.app.store, poll: { firstDelayMs: 10 } });
  try {
    await eventually(
      async () => (await first.app.store.get(open.tokenOnboarding))!.status === 'APPROVED',
      'the second companion never polled the outcome',
    );
  } finally {
    await second.app.close();
  }
});
