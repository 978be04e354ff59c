import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { classify } from '@onboarding-kit/contract';
import { TEST_IDENTITIES } from '../src/index.js';
import { TRANSPORTS, getToken, getWith, harness, postJson, query, type Json } from './helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PEP = { service: 'SERVICE_PEP', cpf: TEST_IDENTITIES.cpfApproved };

for (const transport of TRANSPORTS) {
  describe(`faults over ${transport}`, () => {
    test('errorRate answers that fraction of service-api calls with the in-body 500, deterministically', async () => {
      const h = await harness(transport);
      try {
        const token = await getToken(h.fetch);
        h.sandbox.setFaults({ errorRate: 0.5 });
        const codes: number[] = [];
        for (let i = 0; i < 8; i++) {
          const res = await postJson(h.fetch, '/api/service-api', PEP, token);
          assert.equal(res.status, 200);
          const body = (await res.json()) as Json;
          codes.push(body.status.code);
          if (body.status.code === 500) {
            assert.deepEqual(Object.keys(body).sort(), ['externalId', 'onboardingStatus', 'status']);
            assert.deepEqual(body.status, { code: 500, message: 'Falha ao realizar consulta' });
            assert.equal(body.onboardingStatus, 'ERROR');
            assert.match(body.externalId, UUID);
            assert.equal(classify(body).kind, 'error');
          }
        }
        assert.deepEqual(codes, [200, 500, 200, 500, 200, 500, 200, 500]);
        h.sandbox.setFaults({ errorRate: 0.25 });
        const quarter: number[] = [];
        for (let i = 0; i < 8; i++) quarter.push((await query(h.fetch, token, PEP)).status.code);
        assert.equal(quarter.filter((c) => c === 500).length, 2);
        h.sandbox.setFaults({ errorRate: 1 });
        assert.equal((await query(h.fetch, token, PEP)).status.code, 500);
        h.sandbox.resetFaults();
        assert.equal((await query(h.fetch, token, PEP)).status.code, 200);
      } finally {
        await h.close();
      }
    });

    test('force500: in-body 500 on protected calls, real HTTP 500 on token-history-onboarding; token still checked', async () => {
      const h = await harness(transport, { processingMs: 10 });
      try {
        const token = await getToken(h.fetch);
        const created = (await (
          await postJson(h.fetch, '/api/token-history-onboarding', { cpf: TEST_IDENTITIES.cpfApproved }, token)
        ).json()) as Json;
        h.sandbox.setFaults({ force500: true });
        const inBody = [
          await postJson(h.fetch, '/api/service-api', PEP, token),
          await getWith(h.fetch, '/api/customer?documentKey=52998224725', token),
          await getWith(h.fetch, `/api/onboarding/report/${created.tokenOnboarding}`, token),
          await getWith(h.fetch, `/api/history-onboarding-report/${created.tokenOnboarding}`, token),
        ];
        for (const res of inBody) {
          assert.equal(res.status, 200);
          const body = (await res.json()) as Json;
          assert.deepEqual(body.status, { code: 500, message: 'Falha ao realizar consulta' });
          assert.equal(body.onboardingStatus, 'ERROR');
          assert.match(body.externalId, UUID);
        }
        const creation = await postJson(h.fetch, '/api/token-history-onboarding', { cpf: TEST_IDENTITIES.cpfApproved }, token);
        assert.equal(creation.status, 500);
        assert.deepEqual(await creation.json(), { status: { code: 500, message: 'Falha ao realizar consulta' } });
        assert.equal((await postJson(h.fetch, '/api/service-api', PEP)).status, 401, 'auth comes first');
        assert.equal((await getToken(h.fetch)).length > 0, true, 'token-generate is not a protected call');
      } finally {
        await h.close();
      }
    });

    test('latencyMs delays every answer', async () => {
      const h = await harness(transport);
      try {
        const token = await getToken(h.fetch);
        h.sandbox.setFaults({ latencyMs: 120 });
        for (const call of [
          () => postJson(h.fetch, '/api/service-api', PEP, token),
          () => getWith(h.fetch, '/api/customer?documentKey=1', token),
          () => postJson(h.fetch, '/api/token-generate', {}),
        ]) {
          const started = Date.now();
          await (await call()).text();
          assert.ok(Date.now() - started >= 115, 'answered before the injected latency');
        }
      } finally {
        await h.close();
      }
    });

    test('control API: faults, reset, expire-tokens, stats', async () => {
      const h = await harness(transport, { controlApi: true });
      try {
        const token = await getToken(h.fetch);
        const set = await postJson(h.fetch, '/__sandbox/faults', { force500: true, errorRate: 0.5 });
        assert.equal(set.status, 200);
        assert.deepEqual(((await set.json()) as Json).faults, {
          latencyMs: 0,
          errorRate: 0.5,
          force500: true,
          dropWebhooks: false,
          duplicateWebhooks: false,
        });
        assert.equal((await query(h.fetch, token, PEP)).status.code, 500);
        for (const bad of [{ errorRate: 2 }, { force500: 'yes' }, { latencyMs: -1 }, { explode: true }, [1]]) {
          assert.equal((await postJson(h.fetch, '/__sandbox/faults', bad)).status, 400, JSON.stringify(bad));
        }
        assert.equal((await postJson(h.fetch, '/__sandbox/reset', {})).status, 200);
        assert.equal((await query(h.fetch, token, PEP)).status.code, 200);

        assert.equal((await postJson(h.fetch, '/__sandbox/expire-tokens', {})).status, 200);
        assert.equal((await postJson(h.fetch, '/api/service-api', PEP, token)).status, 401);

        const stats = (await (await h.fetch('/__sandbox/stats')).json()) as Json;
        assert.equal(stats.tokensIssued, 1);
        assert.equal(stats.requests['POST /api/service-api'], 3);
        assert.equal(stats.requests['POST /api/token-generate'], 1);
        assert.equal(stats.webhooksSent, 0);
        assert.deepEqual(stats, h.sandbox.stats());
      } finally {
        await h.close();
      }
    });

    test('controlApi: false leaves /__sandbox unmounted', async () => {
      const h = await harness(transport, { controlApi: false });
      try {
        assert.equal((await postJson(h.fetch, '/__sandbox/reset', {})).status, 404);
        assert.equal((await h.fetch('/__sandbox/stats')).status, 404);
      } finally {
        await h.close();
      }
    });

    test('a sandbox created without options mounts no control route', async () => {
      const h = await harness(transport);
      try {
        const token = await getToken(h.fetch);
        for (const path of ['/__sandbox/faults', '/__sandbox/reset', '/__sandbox/expire-tokens'])
          assert.equal((await postJson(h.fetch, path, { force500: true })).status, 404, path);
        assert.equal((await h.fetch('/__sandbox/stats')).status, 404);
        assert.equal((await query(h.fetch, token, PEP)).status.code, 200, 'no fault was set through the unmounted route');
      } finally {
        await h.close();
      }
    });
  });
}

describe('fault validation', () => {
  test('setFaults rejects values out of range', async () => {
    const h = await harness('app.request');
    try {
      assert.throws(() => h.sandbox.setFaults({ errorRate: 1.5 }), RangeError);
      assert.throws(() => h.sandbox.setFaults({ latencyMs: Number.NaN }), RangeError);
    } finally {
      await h.close();
    }
  });
});
