/**
 * A finished standalone query arriving by webhook is a hint: the pending request of the key it
 * names is consulted at the upstream, and only what the upstream answers ends it, with one
 * `query.completed` however often the upstream (or anyone with the webhook key) repeats it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Hono } from 'hono';
import { MemoryStore, silentLogger, StoreUnavailableError } from '@onboarding-kit/server';
import { companionErrorHandler } from '../src/http/error-handler.js';
import type { CompanionEnv } from '../src/http/env.js';
import { Notifier } from '../src/notifications/outbox.js';
import { StatusPoller } from '../src/relay/poller.js';
import { webhookRoutes } from '../src/webhooks/webhook-routes.js';
import type { Outcome } from '@onboarding-kit/contract';
import { INSPECTION_CHECKS } from '../src/config/defaults.js';
import { QueryService } from '../src/queries/query-service.js';
import { until } from './helpers/notify-receiver.js';

const KEY = 'notify-webhook-key-0123456789';

/** The poller's read of the upstream, which answers APPROVED for every onboarding. */
function approvingPoller(store: MemoryStore) {
  return new StatusPoller({
    store,
    report: async (tokenOnboarding) => ({ tokenOnboarding, status: 'APPROVED' }),
    logger: silentLogger,
    takeOver: false,
  });
}

function app(store: MemoryStore, queries?: QueryService, reports: Pick<StatusPoller, 'checkNow'> = approvingPoller(store)) {
  const a = new Hono<CompanionEnv>();
  a.use(async (c, next) => {
    c.set('log', silentLogger);
    await next();
  });
  a.onError(companionErrorHandler({ logger: silentLogger, environment: 'test' }));
  a.route(
    '/v1/webhooks',
    webhookRoutes({ store, webhookKey: KEY, reports, clientAddress: () => '127.0.0.1', ...(queries && { queries }) }),
  );
  return a;
}

const post = (a: Hono<CompanionEnv>, body: unknown) =>
  a.request('/v1/webhooks', {
    method: 'POST',
    headers: { 'id-service-token': KEY, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

function queued(store: MemoryStore) {
  return store.dueNotifications(Number.MAX_SAFE_INTEGER, 100);
}

const KEY_1 = '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
const envelope = (key: string, status = 'APPROVED') => ({
  status: { code: 200, message: 'Success' },
  result: { key, status },
  externalId: 'ext-77',
});
const consulted = (status: string): Outcome => ({ kind: 'success', ok: true, retryable: false, result: { key: KEY_1, status } });

function service(store: MemoryStore, consult: (key: string) => Promise<Outcome>) {
  const notifier = new Notifier({
    environment: 'test',
    store,
    url: 'https://backend.example/hooks',
    secret: 'x'.repeat(32),
    logger: silentLogger,
    deliver: false,
  });
  const queries = new QueryService({
    store,
    consult,
    notifier,
    logger: silentLogger,
    checks: INSPECTION_CHECKS,
    retentionMs: 60_000,
    maxAgeMs: 120_000,
  });
  return { notifier, queries };
}

test('an envelope naming a pending inspection: consulted at the upstream, one query.completed however often it comes', async () => {
  const store = new MemoryStore();
  let consultations = 0;
  const { notifier, queries } = service(store, async () => {
    consultations++;
    return consulted('APPROVED');
  });
  const request = await queries.answered({
    service: 'SERVICE_DIGITAL_DOCUMENTOSCOPY',
    key: KEY_1,
    outcome: consulted('IN_PROCESS'),
    notify: false,
  });
  const a = app(store, queries);
  for (let i = 0; i < 3; i++) {
    const res = await post(a, envelope(KEY_1));
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { received: true });
    await until(async () => (await store.getQueryRequest(request.id))?.status === 'completed', 'the request completed');
  }
  const entries = await queued(store);
  assert.equal(entries.length, 1, 'a repeated webhook queues one event');
  assert.equal(consultations, 1, 'an ended request is not consulted again');
  const event = JSON.parse(entries[0]!.body) as { type: string; data: Record<string, unknown> };
  assert.equal(event.type, 'query.completed');
  assert.deepEqual(
    { requestId: event.data.requestId, service: event.data.service, key: event.data.key, status: event.data.status },
    { requestId: request.id, service: 'SERVICE_DIGITAL_DOCUMENTOSCOPY', key: KEY_1, status: 'completed' },
  );
  await queries.close();
  await notifier.close();
});

test('an envelope the upstream contradicts, one naming no known key, and one without a key queue nothing', async () => {
  const store = new MemoryStore();
  const { notifier, queries } = service(store, async () => consulted('IN_PROCESS'));
  const request = await queries.answered({
    service: 'SERVICE_DIGITAL_DOCUMENTOSCOPY',
    key: KEY_1,
    outcome: consulted('IN_PROCESS'),
    notify: false,
  });
  const a = app(store, queries);
  assert.equal((await post(a, envelope(KEY_1))).status, 200);
  await until(async () => ((await store.getQueryRequest(request.id))?.checks ?? 0) > 0, 'the consultation');
  assert.equal((await store.getQueryRequest(request.id))!.status, 'pending');
  assert.equal((await post(a, envelope('00000000-0000-4000-8000-000000000000'))).status, 200);
  assert.equal((await post(a, { status: { code: 200, message: 'OK' }, result: { score: 91 }, externalId: 'ext-1' })).status, 200);
  assert.deepEqual(await queued(store), []);
  await queries.close();
  await notifier.close();
});

test('a store that cannot find the request answers 503, so the upstream may deliver again', async () => {
  const store = new MemoryStore();
  const { notifier, queries } = service(store, async () => consulted('APPROVED'));
  store.findQueryRequestByKey = async () => {
    throw new StoreUnavailableError('down');
  };
  const res = await post(app(store, queries), envelope(KEY_1));
  assert.equal(res.status, 503);
  assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'store_unavailable');
  await queries.close();
  await notifier.close();
});

test('without query requests (no API keys) a standalone envelope is acknowledged and nothing is queued', async () => {
  const store = new MemoryStore();
  const res = await post(app(store), envelope(KEY_1));
  assert.equal(res.status, 200);
  assert.deepEqual(await queued(store), []);
});

test('onboarding reports are not notifications of their own: they change the onboarding only', async () => {
  const store = new MemoryStore();
  const { notifier, queries } = service(store, async () => consulted('APPROVED'));
  await store.create({ tokenOnboarding: 't-1', status: 'IN_PROCESS', createdAt: new Date().toISOString(), accessKeyHash: 'x'.repeat(64) });
  const poller = approvingPoller(store);
  const res = await post(app(store, queries, poller), { tokenOnboarding: 't-1', status: 'APPROVED', fields: {}, services: [] });
  assert.equal(res.status, 200);
  // The upstream's report, read because of the webhook, is what changes the onboarding.
  await poller.checkNow('t-1', 'webhook');
  assert.equal((await store.get('t-1'))!.status, 'APPROVED');
  assert.deepEqual(await queued(store), []);
  await poller.close();
  await queries.close();
  await notifier.close();
});
