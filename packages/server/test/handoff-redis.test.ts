/**
 * The hand-off across instances (docs/page-api.md#hand-off): two companions on one real Redis, the
 * computer's event stream held by B over a real socket, the phone claiming and reporting through
 * A. What A stores reaches B's stream through the store's pub/sub.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { companionOn, startStack, type Stack } from '@onboarding-kit/testing/stack';
import type { CompanionApp } from '@onboarding-kit/server';
import type { CreateSessionResponse, HandoffClaim, HandoffOffer } from '@onboarding-kit/contract';
import { listen, type ListeningServer } from '../src/serve.js';
import { RedisStore } from '../src/store/index.js';
import { startRedisServer, type RedisServer } from './helpers/redis-server.js';
import { sessionEvents } from './helpers/session-events.js';

const API_KEY = 'sk_test_handoff_redis_0123456789abcdef0123';

let redis: RedisServer;
let stack: Stack;
before(async () => {
  redis = await startRedisServer();
  stack = await startStack();
});
after(async () => {
  await stack.close();
  await redis.stop();
});

async function instance(prefix: string): Promise<{ app: CompanionApp; logs: string[] }> {
  const store = await RedisStore.connect(redis.url, { prefix });
  return companionOn(stack, { apiKeys: [API_KEY], publicUrl: 'https://kyc.example', store });
}

const post = (app: CompanionApp, path: string, key: string | undefined, payload: unknown) =>
  Promise.resolve(
    app.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key && { authorization: `Bearer ${key}` }) },
      body: JSON.stringify(payload),
    }),
  );

test("two instances on one Redis: the phone claims and reports through A, the computer's stream on B hears it; a reload on A resumes", async () => {
  const prefix = `okit-handoff-${randomUUID().slice(0, 8)}:`;
  const a = await instance(prefix);
  const b = await instance(prefix);
  let served: ListeningServer | undefined;
  try {
    served = await listen((req, env) => b.app.fetch(req, env), { port: 0 });
    const opened = await post(a.app, '/v1/sessions', API_KEY, { reference: 'user-two', cpf: '529.982.247-25' });
    assert.equal(opened.status, 201);
    const s = (await opened.json()) as CreateSessionResponse;

    const computer = await sessionEvents((headers) => fetch(`${served!.url}/v1/session/events`, { headers }), s.clientSecret);
    const offered = await post(b.app, '/v1/session/handoff', s.clientSecret, {});
    assert.equal(offered.status, 201);
    const o = (await offered.json()) as HandoffOffer;
    await computer.until('handoff.created');

    const claimed = await post(a.app, '/v1/handoff/claim', undefined, { code: o.code.toLowerCase() });
    assert.equal(claimed.status, 200);
    const phone = (await claimed.json()) as HandoffClaim;
    await computer.until('handoff.claimed');
    assert.equal(
      (await post(a.app, '/v1/session/progress', phone.clientSecret, { step: 'document-front', photos: ['documentFront'] })).status,
      204,
    );
    await computer.until('capture.progress');
    assert.deepEqual(computer.events.at(-1)?.data, { type: 'capture.progress', step: 'document-front', photos: ['documentFront'] });
    // The claim is the store's, so B refuses the origin as A does.
    const refused = await post(b.app, '/v1/onboardings', s.clientSecret, {});
    assert.equal(refused.status, 409);
    await computer.close();

    const reloaded = await sessionEvents(
      (headers) => Promise.resolve(a.app.request('/v1/session/events', { headers })),
      s.clientSecret,
      computer.events[0]!.id,
    );
    await reloaded.until('capture.progress');
    assert.deepEqual(reloaded.types(), ['handoff.claimed', 'capture.progress'], 'only what came after the last id seen');
    await reloaded.close();
    for (const secret of [s.clientSecret, o.code, o.url, phone.clientSecret])
      assert.ok(![...a.logs, ...b.logs].join('\n').includes(secret), 'no secret in the logs');
  } finally {
    await served?.close({ graceMs: 100 });
    await a.app.close();
    await b.app.close();
  }
});
