import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { companionOn, startStack, type Stack } from '@onboarding-kit/testing/stack';
import { MemoryStore } from '../src/store/memory-store.js';
import { createBody } from './helpers/fixtures.js';
import { postJson } from './helpers/companion.js';

// The creations that pass the limit really go to the sandbox.
let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(() => stack.close());

test('rate limit: counted in the store, so two instances on it share one limit; refused requests do not count', async () => {
  let now = Date.parse('2030-01-01T00:00:00.000Z');
  const store = new MemoryStore({ now: () => now });
  const options = { store, rateLimit: 2, clientAddress: () => '203.0.113.5' };
  const [a, b] = [companionOn(stack, options).app, companionOn(stack, options).app];
  try {
    assert.equal((await postJson(a, '/v1/onboardings', createBody())).status, 201);
    assert.equal((await postJson(b, '/v1/onboardings', createBody())).status, 201);
    for (const app of [a, b, a, b]) {
      const refused = await postJson(app, '/v1/onboardings', createBody());
      assert.equal(refused.status, 429);
      assert.equal(refused.headers.get('retry-after'), '60', 'the window started with the first request, at the same instant');
    }
    now += 30_000;
    assert.equal((await postJson(b, '/v1/onboardings', createBody())).headers.get('retry-after'), '30');
    // The window ends 60 s after its first request, however often the client knocked meanwhile.
    now += 30_000;
    assert.equal((await postJson(b, '/v1/onboardings', createBody())).status, 201);
    assert.equal((await postJson(a, '/v1/onboardings', createBody())).status, 201);
    assert.equal((await postJson(a, '/v1/onboardings', createBody())).status, 429);
  } finally {
    await a.close();
    await b.close();
  }
});
