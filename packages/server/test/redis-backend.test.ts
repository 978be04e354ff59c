/**
 * The backend on several instances (docs/backend-api.md): two companions on one Redis. A session
 * opened on A is read and used through B; its notifications are sent once for the group (the
 * outbox lease), not once per instance; an Idempotency-Key replay on B answers what A created.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { companionOn, body, startStack, type Stack } from '@onboarding-kit/testing/stack';
import { RedisStore, verifyNotification, type CompanionApp } from '@onboarding-kit/server';
import type { CreateSessionResponse, NotificationEvent, SessionView } from '@onboarding-kit/contract';
import { startRedisServer, type RedisServer } from './helpers/redis-server.js';
import { until } from './helpers/notify-receiver.js';

const API_KEY = 'sk_test_redis_0123456789abcdef0123456789ab';
const SECRET = 'whsec_redis_0123456789abcdef0123456789abcd';
const CPF = '529.982.247-25';

let redis: RedisServer;
let stack: Stack;
let receiver: Server;
let receiverUrl: string;
const received: { event: NotificationEvent<SessionView>; verified: boolean }[] = [];

before(async () => {
  redis = await startRedisServer();
  stack = await startStack();
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      void verifyNotification(raw, req.headers['onboarding-signature'] as string | undefined, SECRET).then((verified) => {
        received.push({ event: JSON.parse(raw) as NotificationEvent<SessionView>, verified });
        res.writeHead(204).end();
      });
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/events`;
});
after(async () => {
  await stack.close();
  await new Promise((resolve) => receiver.close(resolve));
  await redis.stop();
});

/** The instances' log lines, for what each did. */
const logsOf = new Map<CompanionApp, string[]>();

async function instance(prefix: string): Promise<CompanionApp> {
  const store = await RedisStore.connect(redis.url, { prefix });
  const { app, logs } = companionOn(stack, { apiKeys: [API_KEY], notify: { url: receiverUrl, secret: SECRET }, store });
  logsOf.set(app, logs);
  return app;
}

test('two instances on one Redis: a session opened on A is used through B, and each event reaches the backend once', async () => {
  const prefix = `okit-backend-${randomUUID().slice(0, 8)}:`;
  const a = await instance(prefix);
  const b = await instance(prefix);
  try {
    const opened = await a.request('/v1/sessions', {
      method: 'POST',
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ reference: 'user-redis', cpf: CPF }),
    });
    assert.equal(opened.status, 201);
    const s = (await opened.json()) as CreateSessionResponse;
    assert.equal(
      (await b.request('/v1/session', { headers: { authorization: `Bearer ${s.clientSecret}` } })).status,
      200,
      'B knows the secret A issued',
    );

    const create = (app: CompanionApp) =>
      app.request('/v1/onboardings', {
        method: 'POST',
        headers: { authorization: `Bearer ${s.clientSecret}`, 'content-type': 'application/json', 'idempotency-key': 'redis-1' },
        body: JSON.stringify(body({ cpf: CPF })),
      });
    const first = await create(b);
    assert.equal(first.status, 201);
    const { tokenOnboarding } = (await first.json()) as { tokenOnboarding: string };
    const replay = await create(a);
    assert.equal(replay.status, 200, 'the replay on A answers what B created');
    assert.equal(((await replay.json()) as { tokenOnboarding: string }).tokenOnboarding, tokenOnboarding);

    // Both instances run an outbox loop and a poller. The group's one outbox (on Redis) holds the
    // session's two events, both delivered and nothing left to send: no second sender has one to send.
    const outbox = async (state: string) => {
      const res = await a.request(`/v1/admin/notifications?state=${state}&limit=200`, { headers: { authorization: `Bearer ${API_KEY}` } });
      return ((await res.json()) as { data: { orderKey: string; type: string }[] }).data
        .filter((e) => e.orderKey === s.id)
        .map((e) => e.type)
        .sort();
    };
    await until(async () => (await outbox('delivered')).length === 2, 'both events recorded as delivered', 30_000);
    assert.deepEqual(await outbox('delivered'), ['session.completed', 'session.submitted']);
    assert.deepEqual(await outbox('pending'), []);
    // One sender for the group: one instance took the outbox lease, the other only queues.
    const senders = [a, b].filter((app) => logsOf.get(app)!.some((l) => l.includes('notification delivery started on this instance')));
    assert.equal(senders.length, 1, 'one instance delivers');
    const mine = received.filter((r) => r.event.data.id === s.id);
    assert.deepEqual(mine.map((r) => r.event.type).sort(), ['session.completed', 'session.submitted'], 'each event once for the group');
    assert.ok(mine.every((r) => r.verified));
    const view = (await (
      await a.request(`/v1/sessions/${s.id}`, { headers: { authorization: `Bearer ${API_KEY}` } })
    ).json()) as SessionView;
    assert.equal(view.status, 'completed');
  } finally {
    await a.close();
    await b.close();
  }
});
