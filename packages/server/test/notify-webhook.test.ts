/**
 * A finished standalone query arriving by webhook becomes a `query.completed` notification, stored
 * before the upstream gets its 2xx, once however often the upstream repeats it.
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

function app(store: MemoryStore, notifier?: Notifier, reports: Pick<StatusPoller, 'checkNow'> = approvingPoller(store)) {
  const a = new Hono<CompanionEnv>();
  a.use(async (c, next) => {
    c.set('log', silentLogger);
    await next();
  });
  a.onError(companionErrorHandler({ logger: silentLogger, environment: 'test' }));
  a.route(
    '/v1/webhooks',
    webhookRoutes({ store, webhookKey: KEY, reports, clientAddress: () => '127.0.0.1', ...(notifier && { notifier }) }),
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

const ENVELOPE = {
  status: { code: 200, message: 'OK' },
  result: { score: 91 },
  externalId: 'ext-77',
  key: '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
};

test('a standalone envelope is queued as query.completed with its outcome, externalId and key, once per key', async () => {
  const store = new MemoryStore();
  const notifier = new Notifier({
    environment: 'test',
    store,
    url: 'https://backend.example/hooks',
    secret: 'x'.repeat(32),
    logger: silentLogger,
    deliver: false,
  });
  const a = app(store, notifier);

  for (let i = 0; i < 3; i++) {
    const res = await post(a, ENVELOPE);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { received: true });
  }
  const entries = await queued(store);
  assert.equal(entries.length, 1, 'a repeated webhook queues one event');
  const [entry] = entries;
  assert.equal(entry!.type, 'query.completed');
  assert.match(entry!.id, /^evt_[0-9a-f]{32}$/);
  const event = JSON.parse(entry!.body) as { id: string; type: string; data: Record<string, unknown> };
  assert.equal(event.id, entry!.id);
  assert.deepEqual(
    { kind: event.data.kind, ok: event.data.ok, result: event.data.result, externalId: event.data.externalId, key: event.data.key },
    { kind: 'success', ok: true, result: { score: 91 }, externalId: 'ext-77', key: ENVELOPE.key },
  );
  await notifier.close();
});

test('without a key the externalId makes the id; with neither, each webhook is its own event with its own order', async () => {
  const store = new MemoryStore();
  const notifier = new Notifier({
    environment: 'test',
    store,
    url: 'https://backend.example/hooks',
    secret: 'x'.repeat(32),
    logger: silentLogger,
    deliver: false,
  });
  const a = app(store, notifier);
  const refused = { status: { code: 200, message: 'OK' }, onboardingStatus: 'REFUSED', externalId: 'ext-r' };
  await post(a, refused);
  await post(a, refused);
  const anonymous = { status: { code: 500, message: 'Falha' }, result: {} };
  await post(a, anonymous);
  await post(a, anonymous);

  const entries = await queued(store);
  assert.equal(entries.length, 3);
  const byExternal = entries.filter((e) => (JSON.parse(e.body) as { data: { externalId?: string } }).data.externalId === 'ext-r');
  assert.equal(byExternal.length, 1);
  assert.equal((JSON.parse(byExternal[0]!.body) as { data: { kind: string } }).data.kind, 'refused');
  const others = entries.filter((e) => e !== byExternal[0]);
  assert.notEqual(others[0]!.id, others[1]!.id);
  assert.notEqual(others[0]!.orderKey, others[1]!.orderKey, 'unrelated queries do not wait for each other');
  await notifier.close();
});

test('a store that cannot queue the event answers 503, so the acknowledgement never outruns the outbox', async () => {
  const store = new MemoryStore();
  store.enqueueNotification = async () => {
    throw new StoreUnavailableError('down');
  };
  const notifier = new Notifier({
    environment: 'test',
    store,
    url: 'https://backend.example/hooks',
    secret: 'x'.repeat(32),
    logger: silentLogger,
    deliver: false,
  });
  const res = await post(app(store, notifier), ENVELOPE);
  assert.equal(res.status, 503);
  assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'store_unavailable');
  await notifier.close();
});

test('without a notifier a standalone envelope is acknowledged and nothing is queued, as before', async () => {
  const store = new MemoryStore();
  const res = await post(app(store), ENVELOPE);
  assert.equal(res.status, 200);
  assert.deepEqual(await queued(store), []);
});

test('onboarding reports are not notifications of their own: they change the onboarding only', async () => {
  const store = new MemoryStore();
  const notifier = new Notifier({
    environment: 'test',
    store,
    url: 'https://backend.example/hooks',
    secret: 'x'.repeat(32),
    logger: silentLogger,
    deliver: false,
  });
  await store.create({ tokenOnboarding: 't-1', status: 'IN_PROCESS', createdAt: new Date().toISOString(), accessKeyHash: 'x'.repeat(64) });
  const poller = approvingPoller(store);
  const res = await post(app(store, notifier, poller), { tokenOnboarding: 't-1', status: 'APPROVED', fields: {}, services: [] });
  assert.equal(res.status, 200);
  // The upstream's report, read because of the webhook, is what changes the onboarding.
  await poller.checkNow('t-1', 'webhook');
  assert.equal((await store.get('t-1'))!.status, 'APPROVED');
  assert.deepEqual(await queued(store), []);
  await poller.close();
  await notifier.close();
});
