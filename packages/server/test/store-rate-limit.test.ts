import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStore } from '../src/store/memory-store.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { createBody } from './helpers/fixtures.js';
import { postJson, testCompanion } from './helpers/companion.js';

let up: FakeUpstream;
before(async () => { up = await startFakeUpstream(); });
after(() => up.close());

test('rate limit: counted in the store, so two instances on it share one limit; refused requests do not count', async () => {
  let now = Date.parse('2030-01-01T00:00:00.000Z');
  const store = new MemoryStore({ now: () => now });
  const options = { store, rateLimit: 2, clientAddress: () => '203.0.113.5' };
  const [a, b] = [testCompanion(up, options).app, testCompanion(up, options).app];
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
