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

async function instance(prefix: string): Promise<CompanionApp> {
  const store = await RedisStore.connect(redis.url, { prefix });
  return companionOn(stack, { apiKeys: [API_KEY], notify: { url: receiverUrl, secret: SECRET }, store }).app;
}

test('two instances on one Redis: a session opened on A is used through B, and each event reaches the backend once', async () => {
  const prefix = `okit-backend-${randomUUID().slice(0, 8)}:`;
  const a = await instance(prefix);
  const b = await instance(prefix);
  try {
    const opened = await a.request('/v1/sessions', { method: 'POST', headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ reference: 'user-redis', cpf: CPF }) });
    assert.equal(opened.status, 201);
    const s = (await opened.json()) as CreateSessionResponse;
    assert.equal((await b.request('/v1/session', { headers: { authorization: `Bearer ${s.clientSecret}` } })).status, 200, 'B knows the secret A issued');

    const create = (app: CompanionApp) =>
      app.request('/v1/onboardings', { method: 'POST', headers: { authorization: `Bearer ${s.clientSecret}`, 'content-type': 'application/json', 'idempotency-key': 'redis-1' }, body: JSON.stringify(body({ cpf: CPF })) });
    const first = await create(b);
    assert.equal(first.status, 201);
    const { tokenOnboarding } = (await first.json()) as { tokenOnboarding: string };
    const replay = await create(a);
    assert.equal(replay.status, 200, 'the replay on A answers what B created');
    assert.equal(((await replay.json()) as { tokenOnboarding: string }).tokenOnboarding, tokenOnboarding);

    const deadline = Date.now() + 30_000;
    while (!received.some((r) => r.event.type === 'session.completed' && r.event.data.id === s.id) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    // Both instances run an outbox loop and a poller; give a second sender time to show up.
    await new Promise((r) => setTimeout(r, 3_000));
    const mine = received.filter((r) => r.event.data.id === s.id);
    assert.deepEqual(mine.map((r) => r.event.type).sort(), ['session.completed', 'session.submitted'], 'each event once for the group');
    assert.ok(mine.every((r) => r.verified));
    const view = (await (await a.request(`/v1/sessions/${s.id}`, { headers: { authorization: `Bearer ${API_KEY}` } })).json()) as SessionView;
    assert.equal(view.status, 'completed');
  } finally {
    await a.close();
    await b.close();
  }
});
